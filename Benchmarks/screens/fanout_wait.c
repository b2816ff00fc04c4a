/*
 * The timed part of `screens.py fanout`: sends the PATCH and times, for every event stream, the arrival of the
 * bytes that carry the new value. Written in C so that the client's own CPU per stream (an epoll wake-up and a
 * read) stays small beside the server's on a machine where both share two cores: Python spent some 7 µs a stream.
 *
 * screens.py opens the screens and their streams, then starts this program with the stream sockets inherited
 * (non-blocking, already read empty) and their descriptor numbers on stdin, one per line, then an empty line.
 *
 * Usage: fanout_wait PORT MARKER PATCH_FILE FIRST_STREAM_FILE TIMEOUT_SECONDS
 *   Prints "ready" once every stream is registered with epoll and waits for a line on stdin (screens.py starts
 *   its measurements of the server then); sends the request in PATCH_FILE on a new connection; reads every stream
 *   until each has received MARKER or TIMEOUT_SECONDS pass. Writes everything the first stream received to
 *   FIRST_STREAM_FILE (for the event's size on the wire), then prints:
 *     reply <the status line of the PATCH's response>
 *     cpu <this program's user + system CPU seconds from "ready" to the end>
 *     one line per stream, in the order given: milliseconds from sending the PATCH to the marker's arrival,
 *     or -1 when it did not arrive.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define CARRY 256

struct stream {
    int fd;
    double arrival_ms;
    size_t carried;
    char carry[CARRY];
};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: fanout_wait PORT MARKER PATCH_FILE FIRST_STREAM_FILE TIMEOUT_SECONDS\n");
        return 2;
    }
    int port = atoi(argv[1]);
    const char *marker = argv[2];
    size_t marker_length = strlen(marker);
    double timeout_ms = atof(argv[5]) * 1e3;
    if (marker_length == 0 || 2 * marker_length >= CARRY) {
        fprintf(stderr, "the marker must be 1 to %d bytes\n", CARRY / 2 - 1);
        return 2;
    }

    char request[65536];
    FILE *patch_file = fopen(argv[3], "rb");
    if (!patch_file) fail(argv[3]);
    size_t request_length = fread(request, 1, sizeof request, patch_file);
    fclose(patch_file);
    FILE *first_stream = fopen(argv[4], "wb");
    if (!first_stream) fail(argv[4]);

    size_t capacity = 1024, count = 0;
    struct stream *streams = malloc(capacity * sizeof *streams);
    char line[64];
    while (fgets(line, sizeof line, stdin) && line[0] != '\n') {
        if (count == capacity) {
            capacity *= 2;
            streams = realloc(streams, capacity * sizeof *streams);
        }
        streams[count] = (struct stream){.fd = atoi(line), .arrival_ms = -1, .carried = 0};
        count++;
    }

    int epoll = epoll_create1(0);
    if (epoll < 0) fail("epoll_create1");
    for (size_t i = 0; i < count; i++) {
        struct epoll_event event = {.events = EPOLLIN, .data.u64 = i};
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, streams[i].fd, &event) < 0) fail("epoll_ctl");
    }

    int trigger = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(trigger, (struct sockaddr *)&address, sizeof address) < 0) fail("connect");
    int one = 1;
    setsockopt(trigger, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);

    printf("ready\n");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) return 1;
    double cpu_start = cpu_seconds();

    double sent = now_ms();
    if (write(trigger, request, request_length) != (ssize_t)request_length) fail("write");

    size_t waiting = count;
    struct epoll_event events[1024];
    static char data[262144];
    while (waiting > 0 && now_ms() - sent < timeout_ms) {
        int ready = epoll_wait(epoll, events, 1024, 500);
        if (ready < 0 && errno != EINTR) fail("epoll_wait");
        for (int e = 0; e < ready; e++) {
            struct stream *stream = &streams[events[e].data.u64];
            double at = now_ms();
            // One read per readiness (level-triggered: whatever is left is reported again), not a second read to
            // see EAGAIN: a system call less per stream.
            do {
                ssize_t got = read(stream->fd, data, sizeof data);
                if (got <= 0) {
                    if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                        epoll_ctl(epoll, EPOLL_CTL_DEL, stream->fd, NULL);  // closed: counted as not received
                        if (stream->arrival_ms < 0) waiting--;
                        stream->arrival_ms = stream->arrival_ms < 0 ? -2 : stream->arrival_ms;
                    }
                    break;
                }
                if (stream == &streams[0]) fwrite(data, 1, (size_t)got, first_stream);
                if (stream->arrival_ms != -1) break;
                // The marker may straddle two reads: look in what was carried from the last read followed by the
                // start of this one, then in this one.
                size_t take = (size_t)got < marker_length ? (size_t)got : marker_length;
                memcpy(stream->carry + stream->carried, data, take);
                size_t combined = stream->carried + take;
                if (memmem(stream->carry, combined, marker, marker_length) ||
                    memmem(data, (size_t)got, marker, marker_length)) {
                    stream->arrival_ms = at - sent;
                    waiting--;
                    if (stream != &streams[0]) epoll_ctl(epoll, EPOLL_CTL_DEL, stream->fd, NULL);
                } else if ((size_t)got >= marker_length - 1) {
                    memcpy(stream->carry, data + got - (marker_length - 1), marker_length - 1);
                    stream->carried = marker_length - 1;
                } else {
                    size_t keep = combined < marker_length - 1 ? combined : marker_length - 1;
                    memmove(stream->carry, stream->carry + combined - keep, keep);
                    stream->carried = keep;
                }
            } while (0);
        }
    }
    double cpu = cpu_seconds() - cpu_start;
    fclose(first_stream);

    char reply[4096];
    struct timeval reply_timeout = {.tv_sec = 10};
    setsockopt(trigger, SOL_SOCKET, SO_RCVTIMEO, &reply_timeout, sizeof reply_timeout);
    ssize_t reply_length = read(trigger, reply, sizeof reply - 1);
    reply[reply_length > 0 ? reply_length : 0] = 0;
    char *end = strstr(reply, "\r\n");
    if (end) *end = 0;
    printf("reply %s\ncpu %.6f\n", reply, cpu);
    for (size_t i = 0; i < count; i++) printf("%.3f\n", streams[i].arrival_ms < 0 ? -1.0 : streams[i].arrival_ms);
    return 0;
}
