/*
 * The timed part of `screens.py fanout`: sends the PATCH and times, for every event stream, the arrival of the
 * bytes that carry the new value. Written in C so that the client's own CPU per stream (an epoll wake-up and a
 * read) stays small beside the server's on a machine where both share two cores: Python spent some 7 µs a stream.
 *
 * screens.py opens the screens and their streams, then starts this program with the stream sockets inherited
 * (non-blocking, already read empty) and their descriptor numbers on stdin, one per line, then an empty line. A
 * line may name after the descriptor how many screens the stream carries ("12 10": a shared stream of wire protocol
 * v2 with ten screens attached, each sending its own patch); without it, one. Each screen's arrival is one more
 * occurrence of MARKER on its stream, timed at the read that completed it.
 *
 * Usage: fanout_wait PORT MARKER PATCH_FILE FIRST_STREAM_FILE TIMEOUT_SECONDS
 *   Prints "ready" once every stream is registered with epoll and waits for a line on stdin (screens.py starts
 *   its measurements of the server then); sends the request in PATCH_FILE on a new connection; reads every stream
 *   until each has received MARKER or TIMEOUT_SECONDS pass. Writes everything the first stream received to
 *   FIRST_STREAM_FILE (for the event's size on the wire), then prints:
 *     reply <the status line of the PATCH's response>
 *     cpu <this program's user + system CPU seconds from "ready" to the end>
 *     extra <occurrences of MARKER beyond a stream's screens in the read that completed it, all streams>
 *     one line per stream, in the order given: for each of its screens, milliseconds from sending the PATCH to
 *     the marker's arrival, or -1 when it did not arrive (space-separated, in order of arrival).
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
    int screens;          // how many arrivals of the marker to wait for
    int arrived;          // how many came
    int closed;           // the server closed it first
    double *arrivals_ms;  // their times, in order of arrival
    size_t carried;
    char carry[CARRY];
};

/* Non-overlapping occurrences of needle in haystack. */
static int occurrences(const char *haystack, size_t length, const char *needle, size_t needle_length) {
    int found = 0;
    const char *at = haystack, *end = haystack + length;
    while (at < end && (at = memmem(at, (size_t)(end - at), needle, needle_length))) {
        found++;
        at += needle_length;
    }
    return found;
}

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

    size_t capacity = 1024, count = 0, screens = 0;
    struct stream *streams = malloc(capacity * sizeof *streams);
    char line[64];
    while (fgets(line, sizeof line, stdin) && line[0] != '\n') {
        if (count == capacity) {
            capacity *= 2;
            streams = realloc(streams, capacity * sizeof *streams);
        }
        char *rest;
        int fd = (int)strtol(line, &rest, 10);
        int carried_screens = (int)strtol(rest, NULL, 10);
        if (carried_screens < 1) carried_screens = 1;
        streams[count] = (struct stream){.fd = fd, .screens = carried_screens, .arrived = 0, .closed = 0, .carried = 0};
        streams[count].arrivals_ms = malloc((size_t)carried_screens * sizeof(double));
        for (int i = 0; i < carried_screens; i++) streams[count].arrivals_ms[i] = -1;
        screens += (size_t)carried_screens;
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

    size_t waiting = screens;  // arrivals still to come, every stream's screens together
    long extra = 0;
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
                        // Closed: the screens still waited for are counted as not received.
                        epoll_ctl(epoll, EPOLL_CTL_DEL, stream->fd, NULL);
                        if (!stream->closed) waiting -= (size_t)(stream->screens - stream->arrived);
                        stream->closed = 1;
                    }
                    break;
                }
                if (stream == &streams[0]) fwrite(data, 1, (size_t)got, first_stream);
                if (stream->arrived == stream->screens || stream->closed) break;
                // The marker may straddle two reads: count it in what was carried from the last read followed by
                // the start of this one (fewer bytes than the marker: only a straddling one fits), then in this one.
                size_t take = (size_t)got < marker_length - 1 ? (size_t)got : marker_length - 1;
                memcpy(stream->carry + stream->carried, data, take);
                size_t combined = stream->carried + take;
                int found = occurrences(stream->carry, combined, marker, marker_length) +
                            occurrences(data, (size_t)got, marker, marker_length);
                for (; found > 0 && stream->arrived < stream->screens; found--) {
                    stream->arrivals_ms[stream->arrived++] = at - sent;
                    waiting--;
                }
                extra += found;
                if (stream->arrived == stream->screens) {
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
    printf("reply %s\ncpu %.6f\nextra %ld\n", reply, cpu, extra);
    for (size_t i = 0; i < count; i++) {
        for (int s = 0; s < streams[i].screens; s++)
            printf(s ? " %.3f" : "%.3f", s < streams[i].arrived ? streams[i].arrivals_ms[s] : -1.0);
        printf("\n");
    }
    return 0;
}
