/*
 * The floor under `screens.py fanout` on this machine: what the same fan-out costs with no server at all. N loopback
 * TCP connections; SENDERS threads send one chunk of BYTES bytes (133: the rating patch as it goes on the wire) to
 * each, as a server's workers would, split between them; a forked reader reads every connection from one epoll loop, a
 * read per readiness, as fanout_wait does, and times each arrival from the moment the sends start.
 *
 * On one machine the sender pays for the reader's TCP input and wake-up (loopback delivers inside the sender's
 * system call), and both share the cores with the reader, as they do in the fan-out benchmark: so this is the fastest
 * any server could reach every stream here, the fan-out's counterpart of nginx for the page.
 *
 * Usage: fanout_floor N [SENDERS (2)] [ROUNDS (3)] [BYTES (133)]
 * Prints, for each round, the arrivals' first, p50, p99 and max in milliseconds and the senders' and reader's CPU,
 * then the rounds' median p99.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int count, senders, bytes;
static int *sending;
static pthread_barrier_t go;
static char payload[65536];

/* Milliseconds on `clock`: CLOCK_MONOTONIC for arrivals, CLOCK_PROCESS_CPUTIME_ID for a process's CPU. */
static double clock_ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sender `k` of `senders` sends to every senders-th connection from the k-th. */
static void *send_share(void *argument) {
    pthread_barrier_wait(&go); /* the threads are running before the clock starts */
    for (int i = (int)(long)argument; i < count; i += senders) {
        if (send(sending[i], payload, (size_t)bytes, MSG_DONTWAIT | MSG_NOSIGNAL) != bytes) fail("send");
    }
    return NULL;
}

/* One round: connections made by a forked reader, accepted here; returns the round's p99 in milliseconds. */
static double round_once(int listener, struct sockaddr_in address) {
    int ready[2], start[2], result[2];
    if (pipe(ready) || pipe(start) || pipe(result)) fail("pipe");
    fflush(stdout);
    pid_t reader = fork();
    if (reader < 0) fail("fork");
    if (reader == 0) {
        close(listener);
        int *fds = malloc(sizeof(int) * (size_t)count);
        double *arrivals = malloc(sizeof(double) * (size_t)count);
        int epoll = epoll_create1(0);
        for (int i = 0; i < count; i++) {
            fds[i] = socket(AF_INET, SOCK_STREAM, 0);
            if (fds[i] < 0) fail("socket");
            if (connect(fds[i], (struct sockaddr *)&address, sizeof address) < 0) fail("connect");
            struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
            if (epoll_ctl(epoll, EPOLL_CTL_ADD, fds[i], &event) < 0) fail("epoll_ctl");
        }
        if (write(ready[1], "r", 1) != 1) fail("write");
        double started;
        if (read(start[0], &started, sizeof started) != sizeof started) fail("read");
        double cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
        struct epoll_event events[1024];
        static char data[65536];
        int arrived = 0;
        while (arrived < count) {
            int n = epoll_wait(epoll, events, 1024, 5000);
            if (n <= 0) break;
            for (int e = 0; e < n; e++) {
                int fd = fds[events[e].data.u32];
                if (read(fd, data, sizeof data) <= 0) fail("read");
                arrivals[arrived++] = clock_ms(CLOCK_MONOTONIC) - started;
                epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
            }
        }
        double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
        qsort(arrivals, (size_t)arrived, sizeof(double), by_value);
        /* The same rank as screens.py's percentile(). */
        int p99 = (int)(0.99 * (arrived - 1) + 0.5);
        printf("  %d/%d received: first %.2f, p50 %.2f, p99 %.2f, max %.2f ms; reader CPU %.1f ms (%.1f µs a stream)",
               arrived, count, arrived ? arrivals[0] : -1, arrived ? arrivals[arrived / 2] : -1,
               arrived ? arrivals[p99] : -1, arrived ? arrivals[arrived - 1] : -1, cpu,
               1000 * cpu / count);
        fflush(stdout);
        double value = arrived == count ? arrivals[p99] : -1;
        if (write(result[1], &value, sizeof value) != sizeof value) fail("write");
        _exit(0);
    }
    int one = 1;
    for (int i = 0; i < count; i++) {
        sending[i] = accept(listener, NULL, NULL);
        if (sending[i] < 0) fail("accept");
        setsockopt(sending[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    char signal;
    if (read(ready[0], &signal, 1) != 1) fail("read");
    usleep(200000); /* let the machine settle after the connections */
    pthread_t threads[64];
    pthread_barrier_init(&go, NULL, (unsigned)senders + 1);
    for (long k = 0; k < senders; k++) pthread_create(&threads[k], NULL, send_share, (void *)k);
    double cpu_start = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    double started = clock_ms(CLOCK_MONOTONIC);
    if (write(start[1], &started, sizeof started) != sizeof started) fail("write");
    pthread_barrier_wait(&go);
    for (int k = 0; k < senders; k++) pthread_join(threads[k], NULL);
    pthread_barrier_destroy(&go);
    double cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    double p99;
    if (read(result[0], &p99, sizeof p99) != sizeof p99) fail("read");
    waitpid(reader, NULL, 0);
    printf("; senders' CPU %.1f ms (%.1f µs a send)\n", cpu, 1000 * cpu / count);
    fflush(stdout);
    for (int i = 0; i < count; i++) close(sending[i]);
    close(ready[0]), close(ready[1]), close(start[0]), close(start[1]), close(result[0]), close(result[1]);
    return p99;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fanout_floor N [SENDERS (2)] [ROUNDS (3)] [BYTES (133)]\n");
        return 2;
    }
    count = atoi(argv[1]);
    senders = argc > 2 ? atoi(argv[2]) : 2;
    int rounds = argc > 3 ? atoi(argv[3]) : 3;
    bytes = argc > 4 ? atoi(argv[4]) : 133;
    if (count < 1 || senders < 1 || senders > 64 || rounds < 1 || bytes < 1 || bytes > (int)sizeof payload) {
        fprintf(stderr, "fanout_floor: N, SENDERS (1-64), ROUNDS and BYTES (1-65536) must be positive\n");
        return 2;
    }
    memset(payload, 'x', sizeof payload);
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if ((rlim_t)count + 64 > limit.rlim_cur) {
        fprintf(stderr, "fanout_floor: %d connections need more open files than the limit (%lu)\n", count,
                (unsigned long)limit.rlim_cur);
        return 1;
    }
    sending = malloc(sizeof(int) * (size_t)count);
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0) fail("bind");
    if (listen(listener, 65535) < 0) fail("listen");
    getsockname(listener, (struct sockaddr *)&address, &length);

    printf("fan-out floor: %d loopback connections, %d bytes to each from %d sender thread%s, no server\n", count,
           bytes, senders, senders == 1 ? "" : "s");
    double p99s[64];
    int measured = 0;
    for (int r = 0; r < rounds && r < 64; r++) {
        double p99 = round_once(listener, address);
        if (p99 >= 0) p99s[measured++] = p99;
    }
    if (measured == 0) {
        printf("  no round reached every connection\n");
        return 1;
    }
    qsort(p99s, (size_t)measured, sizeof(double), by_value);
    printf("  median p99 over %d rounds: %.2f ms\n", measured, p99s[measured / 2]);
    return 0;
}
