// The queue benchmark's cycle client: N keep-alive connections, one session each, every
// connection looping enqueue -> next -> ack as fast as the server answers. One thread and
// epoll, so the client takes little of the machine's two cores (wrk would need a thread per
// connection: its Lua state is per thread, and a cycle's requests depend on each other).
//
//   cycle HOST PORT SECONDS ADMIN_TOKEN TOKENS_FILE
//
// TOKENS_FILE has one line per connection: "<session> <session token>". Prints cycles/s,
// requests/s, request latency p50/p99 and any unexpected answers. Loopback benchmarking only.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum step { ENQUEUE, NEXT, ACK };

struct conn {
    int fd;
    enum step step;
    char session[128], token[512], ticket[64];
    char in[65536];
    size_t have;
    double sent;
    long counter;
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static const char *admin;
/* A JSON member every enqueue carries (CYCLE_PACING, e.g. "pacing":{...}), or "". */
static const char *pacing = "";
static double *latencies;
static long nlat, maxlat = 4000000, requests, cycles, unexpected;

static void send_request(struct conn *c) {
    char req[2048];
    int n;
    if (c->step == ENQUEUE) {
        char body[640];
        int blen = snprintf(body, sizeof body, "{\"alert\":\"app/questionExit\",\"dedupeKey\":\"c%ld\"%s%s}", ++c->counter,
                            *pacing ? "," : "", pacing);
        n = snprintf(req, sizeof req,
                     "POST /v1/sessions/%s/queue HTTP/1.1\r\nHost: b\r\nAuthorization: Bearer %s\r\n"
                     "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
                     c->session, admin, blen, body);
    } else if (c->step == NEXT) {
        n = snprintf(req, sizeof req, "GET /v1/sessions/%s/next HTTP/1.1\r\nHost: b\r\nAuthorization: Bearer %s\r\n\r\n",
                     c->session, c->token);
    } else {
        const char *body = "{\"action\":\"leave\"}";
        n = snprintf(req, sizeof req,
                     "POST /v1/sessions/%s/queue/%s/ack HTTP/1.1\r\nHost: b\r\nAuthorization: Bearer %s\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                     c->session, c->ticket, c->token, strlen(body), body);
    }
    c->sent = now();
    if (write(c->fd, req, n) != n) { perror("write"); exit(1); }
}

// A complete response in c->in: its status and body; returns bytes used, 0 if incomplete.
static size_t parse(struct conn *c, int *status, char **body, size_t *blen) {
    c->in[c->have] = 0;
    char *end = strstr(c->in, "\r\n\r\n");
    if (!end) return 0;
    *status = atoi(c->in + 9);
    size_t length = 0;
    char *cl = strcasestr(c->in, "\r\nContent-Length:");
    if (cl && cl < end) length = strtoul(cl + 17, NULL, 10);
    size_t total = (end + 4 - c->in) + length;
    if (c->have < total) return 0;
    *body = end + 4;
    *blen = length;
    return total;
}

static void answered(struct conn *c, int status, char *body, size_t blen) {
    requests++;
    if (nlat < maxlat) latencies[nlat++] = now() - c->sent;
    if (c->step == ENQUEUE) {
        if (status != 201) unexpected++;
        c->step = NEXT;
    } else if (c->step == NEXT) {
        char *t = status == 200 ? strstr(body, "\"ticket\":\"") : NULL;
        if (t && (size_t)(t - body) < blen) {
            t += 10;
            size_t i = 0;
            while (t[i] != '"' && i < sizeof c->ticket - 1) { c->ticket[i] = t[i]; i++; }
            c->ticket[i] = 0;
            c->step = ACK;
        } else {
            unexpected++;  // nothing to deliver: look again
        }
    } else {
        if (status != 200) unexpected++;
        cycles++;
        c->step = ENQUEUE;
    }
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: cycle HOST PORT SECONDS ADMIN_TOKEN TOKENS_FILE\n"); return 2; }
    const char *host = argv[1];
    int port = atoi(argv[2]);
    double seconds = atof(argv[3]);
    admin = argv[4];
    if (getenv("CYCLE_PACING")) pacing = getenv("CYCLE_PACING");
    if (strlen(pacing) > 512) { fprintf(stderr, "CYCLE_PACING is longer than 512 bytes\n"); return 2; }
    FILE *file = fopen(argv[5], "r");
    if (!file) { perror(argv[5]); return 2; }
    struct conn *conns = calloc(1024, sizeof *conns);
    latencies = malloc(maxlat * sizeof *latencies);
    int n = 0;
    while (n < 1024 && fscanf(file, "%127s %511s", conns[n].session, conns[n].token) == 2) n++;
    fclose(file);

    int ep = epoll_create1(0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, host, &addr.sin_addr);
    for (int i = 0; i < n; i++) {
        struct conn *c = &conns[i];
        c->fd = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(c->fd, (struct sockaddr *)&addr, sizeof addr) != 0) { perror("connect"); return 1; }
        struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
        epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
        send_request(c);
    }
    double start = now(), stop = start + seconds;
    struct epoll_event events[256];
    while (now() < stop) {
        int ready = epoll_wait(ep, events, 256, 100);
        for (int e = 0; e < ready; e++) {
            struct conn *c = events[e].data.ptr;
            ssize_t got = read(c->fd, c->in + c->have, sizeof c->in - 1 - c->have);
            if (got <= 0) { fprintf(stderr, "connection %s closed\n", c->session); return 1; }
            c->have += got;
            int status;
            char *body;
            size_t blen, used;
            while ((used = parse(c, &status, &body, &blen)) > 0) {
                answered(c, status, body, blen);
                memmove(c->in, c->in + used, c->have - used);
                c->have -= used;
                send_request(c);
            }
        }
    }
    double elapsed = now() - start;
    qsort(latencies, nlat, sizeof *latencies, cmp);
    printf("cycles: %.0f/s (%.0f requests/s over %d connections); request latency p50 %.2f ms, p99 %.2f ms; "
           "unexpected answers: %ld\n",
           cycles / elapsed, requests / elapsed, n, nlat ? latencies[nlat / 2] * 1e3 : 0,
           nlat ? latencies[(long)(nlat * 0.99)] * 1e3 : 0, unexpected);
    return 0;
}
