// This machine's own jitter, with no request running: the same unit of work timed again and
// again, each after the same idle gap as the long-poll benchmark's rounds. On a VM the work can
// run several times slower for a moment (a neighbour on the host, the host itself); a wake-up
// measured in such a moment is that much slower too, whatever the server does.
//
//   jitter UNITS STEPS
//
// A unit is STEPS dependent loads over a 4 MiB table (pointer chasing, as libmicrohttpd's walk
// over its suspended connections is), then a 10 ms sleep. Prints the units' p50, p99 and max,
// and when the units slower than twice the median came: on the development VM, in clusters of
// a few hundred milliseconds every one to two seconds.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s UNITS STEPS\n", argv[0]);
        return 2;
    }
    int units = atoi(argv[1]), steps = atoi(argv[2]);
    if (units < 10 || steps < 1) {
        fprintf(stderr, "UNITS is 10 or more, STEPS 1 or more\n");
        return 2;
    }
    // A table of indexes whose chain visits it in a scattered order: from any start it runs
    // 65,536 steps, spread over the whole 4 MiB, before it repeats (far more than a unit takes).
    size_t size = (size_t)1 << 19;
    size_t *next = malloc(size * sizeof *next);
    double *took = malloc((size_t)units * sizeof *took), *at = malloc((size_t)units * sizeof *at);
    double *sorted = malloc((size_t)units * sizeof *sorted);
    if (!next || !took || !at || !sorted) return 1;
    for (size_t i = 0; i < size; i++) next[i] = (i * 7919 + 1) % size;
    volatile size_t sink = 0;
    struct timespec gap = {0, 10 * 1000 * 1000};
    double start = now();
    for (int u = 0; u < units; u++) {
        size_t p = (size_t)u;
        double begin = now();
        for (int s = 0; s < steps; s++) p = next[p];
        took[u] = now() - begin;
        at[u] = begin - start;
        sink += p;
        nanosleep(&gap, NULL);
    }
    for (int u = 0; u < units; u++) sorted[u] = took[u];
    qsort(sorted, (size_t)units, sizeof *sorted, ascending);
    double median = sorted[units / 2];
    printf("machine jitter, %d units of %d dependent loads, each after 10 ms idle: p50 %.2f ms, p99 %.2f ms (%.1f x the median), max %.2f ms\n",
           units, steps, median * 1e3, sorted[units * 99 / 100] * 1e3, sorted[units * 99 / 100] / median,
           sorted[units - 1] * 1e3);
    printf("  units slower than twice the median, seconds into the run:");
    int shown = 0;
    for (int u = 0; u < units && shown < 40; u++) {
        if (took[u] > 2 * median) {
            printf(" %.2f", at[u]);
            shown++;
        }
    }
    printf("%s\n", shown ? "" : " none");
    return 0;
}
