/* A C reference of the greedy player, to measure how close the numba kernel comes to a tight
 * compiled loop doing the same work. Same deals (SplitMix64 + Fisher-Yates, as foursquare.cards),
 * same greedy rule, same 9x9 grid; orthogonal adjacency, count_buried=false.
 *
 *   gcc -O2 -march=native -o /tmp/greedy benchmarks/greedy.c && /tmp/greedy 1 1000 20
 *
 * prints the wins and total score over the deals (which must match `foursquare bench`) and the
 * games per second of the fastest of the repeated runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SIDE 9
#define CELLS 81
#define FIRST (4 * SIDE + 4)

typedef struct {
    int8_t top[CELLS], up[CELLS], height[CELLS];
    int min_r, max_r, min_c, max_c, ncells, turn, topdown, status, score;
} State;

enum { PLAYING, WON, LOST };

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void deal(uint64_t number, int8_t stock[40]) {
    uint64_t s = number;
    for (int i = 0; i < 40; i++) stock[i] = (int8_t)i;
    for (int i = 39; i > 0; i--) {
        int j = (int)(splitmix(&s) % (uint64_t)(i + 1));
        int8_t t = stock[i]; stock[i] = stock[j]; stock[j] = t;
    }
}

static void reset(State *st) {
    memset(st, 0, sizeof *st);
    memset(st->top, -1, sizeof st->top);
    st->min_r = st->min_c = SIDE;
    st->max_r = st->max_c = -1;
}

static int legal(const State *st, int *out) {
    if (st->ncells == 0) { out[0] = FIRST; return 1; }
    int n = 0;
    for (int r = st->max_r - 3; r <= st->min_r + 3; r++)
        for (int c = st->max_c - 3; c <= st->min_c + 3; c++) {
            int cell = r * SIDE + c;
            if (st->top[cell] >= 0) {
                if (st->height[cell] < 4) out[n++] = cell;
            } else if (st->top[cell - SIDE] >= 0 || st->top[cell + SIDE] >= 0 || st->top[cell - 1] >= 0 ||
                       st->top[cell + 1] >= 0) {
                out[n++] = cell;
            }
        }
    return n;
}

/* Returns whether the line check fires; *delta = change in face-down tops. */
static int line_check(const State *st, int cell, int rank, int first, int step, int count, int *delta) {
    int n_up = 0, n_down = 0, up_max = 0, up_min = 99;
    for (int i = 0, o = first; i < count; i++, o += step) {
        if (o == cell || st->top[o] < 0) continue;
        if (st->up[o]) {
            int r = st->top[o] / 4 + 1;
            n_up++;
            if (r > up_max) up_max = r;
            if (r < up_min) up_min = r;
        } else {
            n_down++;
        }
    }
    *delta = 0;
    if (n_up + n_down == 0) return 0;
    if (n_up == 0 || rank > up_max || rank < up_min) { *delta = n_up - n_down; return 1; }
    return 0;
}

static int evaluate(const State *st, int cell, int card, int *down, int *ncells) {
    int r = cell / SIDE, c = cell % SIDE, topdown = st->topdown, d;
    *ncells = st->ncells;
    if (st->top[cell] >= 0) { if (!st->up[cell]) topdown--; } else (*ncells)++;
    int rank = card / 4 + 1;
    int c_lo = st->min_c < c ? st->min_c : c, c_hi = st->max_c > c ? st->max_c : c;
    int r_lo = st->min_r < r ? st->min_r : r, r_hi = st->max_r > r ? st->max_r : r;
    line_check(st, cell, rank, r * SIDE + c_lo, 1, c_hi - c_lo + 1, &d); topdown += d;
    line_check(st, cell, rank, r_lo * SIDE + c, SIDE, r_hi - r_lo + 1, &d); topdown += d;
    *down = topdown;
    if (*ncells == 16 && topdown == 0) return WON;
    if (topdown > 4 || st->turn + 1 == 40) return LOST;
    return PLAYING;
}

static void flip(State *st, int cell, int rank, int first, int step, int count) {
    int d;
    if (!line_check(st, cell, rank, first, step, count, &d)) return;
    for (int i = 0, o = first; i < count; i++, o += step)
        if (o != cell && st->top[o] >= 0) st->up[o] ^= 1;
    st->topdown += d;
}

static void place(State *st, int cell, int card) {
    int r = cell / SIDE, c = cell % SIDE;
    if (st->top[cell] >= 0) {
        if (!st->up[cell]) st->topdown--;
    } else {
        st->ncells++;
        if (r < st->min_r) st->min_r = r;
        if (r > st->max_r) st->max_r = r;
        if (c < st->min_c) st->min_c = c;
        if (c > st->max_c) st->max_c = c;
    }
    st->top[cell] = (int8_t)card; st->up[cell] = 1; st->height[cell]++;
    int rank = card / 4 + 1;
    flip(st, cell, rank, r * SIDE + st->min_c, 1, st->max_c - st->min_c + 1);
    flip(st, cell, rank, st->min_r * SIDE + c, SIDE, st->max_r - st->min_r + 1);
    st->turn++;
    if (st->ncells == 16 && st->topdown == 0) { st->status = WON; st->score = 40 - st->turn; }
    else if (st->topdown > 4 || st->turn == 40) st->status = LOST;
}

static int greedy(const State *st, int card) {
    int moves[64], n = legal(st, moves), best = -1, best_key = 1 << 30;
    for (int i = 0; i < n; i++) {
        int down, ncells, status = evaluate(st, moves[i], card, &down, &ncells);
        if (status == WON) return moves[i];
        int key = (status == LOST ? 1000 : down) * 32 - ncells;
        if (key < best_key) { best_key = key; best = moves[i]; }
    }
    return best;
}

int main(int argc, char **argv) {
    uint64_t lo = argc > 1 ? strtoull(argv[1], 0, 10) : 1, hi = argc > 2 ? strtoull(argv[2], 0, 10) : 1000;
    int repeats = argc > 3 ? atoi(argv[3]) : 20;
    int games = (int)(hi - lo + 1);
    int8_t (*stocks)[40] = malloc(sizeof(int8_t[40]) * (size_t)games);
    for (int g = 0; g < games; g++) deal(lo + (uint64_t)g, stocks[g]);
    double best = 1e30;
    long wins = 0, total = 0;
    for (int rep = 0; rep < repeats; rep++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        wins = total = 0;
        for (int g = 0; g < games; g++) {
            State st;
            reset(&st);
            while (st.status == PLAYING) {
                int card = stocks[g][st.turn];
                place(&st, greedy(&st, card), card);
            }
            if (st.status == WON) { wins++; total += st.score; }
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (s < best) best = s;
    }
    printf("{\"games\": %d, \"wins\": %ld, \"total_score\": %ld, \"games_per_second\": %.0f, \"seconds\": %.6f}\n",
           games, wins, total, games / best, best);
    free(stocks);
    return 0;
}
