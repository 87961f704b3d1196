/* An independent C implementation of simkit's random game (docs/RULES.md, docs/ENGINE.md), as a
 * speed reference for the Numba kernel: one game per call, bitboards, no per-game output.
 *
 * It plays the very games of simkit's kernel (same splitmix64 stream per (seed, game), same
 * Lemire draws, same deal, draws, reshuffles, sequence detection, dead-card swaps, passes and
 * stalemates), so `dump` output can be compared with the kernel's statistics row for row
 * (benchmarks/c_reference/README.md). Standard rules only: unlimited chips, reshuffle and dead
 * swap on, no late card, one hand size for every seat, turn cap 1000.
 *
 *     gcc -O2 -march=native -o sequence sequence.c
 *     ./sequence bench [games per timing] [rounds]    # games/s per table, one thread, best of rounds
 *     ./sequence time PLAYERS TEAMS N FIRST            # games/s of games FIRST.. of seed 1 at one table
 *     ./sequence dump PLAYERS TEAMS SEED FIRST N       # statistics rows (simkit's STAT_NAMES order)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PLAYERS 12
#define DECK 104
#define CODES 52
#define LINES 192
#define MAX_TURNS 1000
enum { ORDINARY, TWO_EYED, ONE_EYED };
enum { END_WIN, END_STALEMATE, END_TURN_CAP };

static const char *BOARD[100] = {
    "XX","2S","3S","4S","5S","6S","7S","8S","9S","XX",
    "6C","5C","4C","3C","2C","AH","KH","QH","TH","TS",
    "7C","AS","2D","3D","4D","5D","6D","7D","9H","QS",
    "8C","KS","6C","5C","4C","3C","2C","8D","8H","KS",
    "9C","QS","7C","6H","5H","4H","AH","9D","7H","AS",
    "TC","TS","8C","7H","2H","3H","KH","TD","6H","2D",
    "QC","9S","9C","8H","9H","TH","QH","QD","5H","3D",
    "KC","8S","TC","QC","KC","AC","AD","KD","4H","4D",
    "AC","7S","6S","5S","4S","3S","2S","2H","3H","5D",
    "XX","AD","KD","QD","TD","9D","8D","7D","6D","XX"};

/* Tables, built once. */
static int card_of_cell[100];          /* -1: corner */
static int card_cell[CODES][2];        /* the two cells of an ordinary card */
static int card_kind[CODES];
static uint64_t card_bb[CODES][2];     /* cells a card may take: its two, or every non-corner cell */
static uint64_t kind_codes[3];
static uint64_t corners_bb[2], playable_bb[2];
static uint64_t line_bb[LINES][2];
static int line_dir[LINES], line_key[LINES], line_pos[LINES];
static int cell_lines[100][20], cell_nlines[100];

static void build_tables(void) {
    const char *ranks = "A23456789TJQK", *suits = "SHDC";
    int seen[CODES] = {0};
    memset(corners_bb, 0, sizeof corners_bb);
    memset(playable_bb, 0, sizeof playable_bb);
    for (int c = 0; c < 100; c++) {
        if (BOARD[c][0] == 'X') { card_of_cell[c] = -1; corners_bb[c >> 6] |= 1ull << (c & 63); continue; }
        int code = (int)(strchr(suits, BOARD[c][1]) - suits) * 13 + (int)(strchr(ranks, BOARD[c][0]) - ranks);
        card_of_cell[c] = code;
        card_cell[code][seen[code]++] = c;
        playable_bb[c >> 6] |= 1ull << (c & 63);
    }
    for (int k = 0; k < CODES; k++) {
        card_kind[k] = k % 13 != 10 ? ORDINARY : (k == 36 || k == 49) ? TWO_EYED : ONE_EYED;
        kind_codes[card_kind[k]] |= 1ull << k;
        card_bb[k][0] = card_bb[k][1] = 0;
        if (card_kind[k] == ORDINARY)
            for (int i = 0; i < 2; i++) card_bb[k][card_cell[k][i] >> 6] |= 1ull << (card_cell[k][i] & 63);
        else if (card_kind[k] == TWO_EYED) { card_bb[k][0] = playable_bb[0]; card_bb[k][1] = playable_bb[1]; }
    }
    static const int steps[4] = {1, 10, 11, 9};
    int n = 0;
    for (int d = 0; d < 4; d++) {
        int dr = d == 0 ? 0 : 1, dc = d == 0 ? 1 : d == 1 ? 0 : d == 2 ? 1 : -1;
        for (int start = 0; start < 100; start++) {
            int r0 = start / 10, c0 = start % 10, r4 = r0 + 4 * dr, c4 = c0 + 4 * dc;
            if (r4 < 0 || r4 > 9 || c4 < 0 || c4 > 9) continue;
            line_bb[n][0] = line_bb[n][1] = 0;
            for (int i = 0; i < 5; i++) {
                int c = start + i * steps[d];
                line_bb[n][c >> 6] |= 1ull << (c & 63);
                cell_lines[c][cell_nlines[c]++] = n;
            }
            line_dir[n] = d;
            line_key[n] = d == 0 ? r0 : d == 1 ? c0 : d == 2 ? c0 - r0 : c0 + r0;
            line_pos[n] = d == 1 ? r0 : d == 0 ? c0 : r0;
            n++;
        }
    }
}

/* Random numbers: docs/ENGINE.md, "Random numbers". */
static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint64_t next_u64(uint64_t *s) { *s += 0x9E3779B97F4A7C15ull; return mix(*s); }
static inline int below(uint64_t *s, uint32_t n) {
    uint64_t m = (next_u64(s) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (low < t) { m = (next_u64(s) >> 32) * n; low = (uint32_t)m; }
    }
    return (int)(m >> 32);
}
static inline void shuffle(uint64_t *s, int8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) { int j = below(s, i + 1); int8_t x = a[i]; a[i] = a[j]; a[j] = x; }
}

typedef struct {
    int players, teams, hand, to_win;
    uint64_t rng;
    int8_t pile[DECK], discard[DECK];
    int pile_pos, pile_n, discard_n;
    uint64_t held[MAX_PLAYERS];
    uint8_t count[MAX_PLAYERS][CODES];
    uint64_t dead, occ[2], locked[2], chips[3][2];
    int seqs[3][16], nseq[3], on_board[3];
    int64_t stats[20];
} Game;
enum { S_WINNER, S_END, S_TURNS, S_FIRST_SEQ_TURN, S_FIRST_SEQ_TEAM, S_SEQ, S_CHIPS = 8, S_ONE = 11, S_TWO = 14,
       S_DEAD_SWAPS = 17, S_RESHUFFLES, S_PASSES };

static inline int nth_bit(uint64_t x, int k) { while (k--) x &= x - 1; return __builtin_ctzll(x); }
static inline int popc(uint64_t x) { return __builtin_popcountll(x); }

static inline void take(Game *g, int seat, int code) {
    if (--g->count[seat][code] == 0) g->held[seat] &= ~(1ull << code);
    g->discard[g->discard_n++] = (int8_t)code;
}
static inline void draw(Game *g, int seat) {
    if (g->pile_pos == g->pile_n) {  /* the discards, shuffled, become the pile (never empty here) */
        memcpy(g->pile, g->discard, (size_t)g->discard_n);
        g->pile_n = g->discard_n; g->pile_pos = 0; g->discard_n = 0;
        shuffle(&g->rng, g->pile, g->pile_n);
        g->stats[S_RESHUFFLES]++;
    }
    int code = g->pile[g->pile_pos++];
    g->count[seat][code]++;
    g->held[seat] |= 1ull << code;
}

/* Lines through `cell`, in line-number order: each covered one that shares at most one cell with
 * every sequence the team holds becomes a sequence. */
static inline int declare(Game *g, int team, int cell) {
    uint64_t w0 = g->chips[team][0] | corners_bb[0], w1 = g->chips[team][1] | corners_bb[1];
    int made = 0;
    for (int i = 0; i < cell_nlines[cell]; i++) {
        int k = cell_lines[cell][i];
        if ((w0 & line_bb[k][0]) != line_bb[k][0] || (w1 & line_bb[k][1]) != line_bb[k][1]) continue;
        int ok = 1;
        for (int j = 0; j < g->nseq[team]; j++) {
            int s = g->seqs[team][j];
            if (line_dir[s] == line_dir[k] && line_key[s] == line_key[k] && abs(line_pos[s] - line_pos[k]) < 4) { ok = 0; break; }
        }
        if (!ok) continue;
        g->seqs[team][g->nseq[team]++] = k;
        g->locked[0] |= line_bb[k][0]; g->locked[1] |= line_bb[k][1];
        made++;
    }
    return made;
}

static inline int occupied(const Game *g, int c) { return (g->occ[c >> 6] >> (c & 63)) & 1; }

static void play_game(Game *g, uint64_t seed, uint64_t game) {
    int players = g->players, teams = g->teams;
    g->rng = mix(mix(seed) ^ game);
    for (int i = 0; i < DECK; i++) g->pile[i] = (int8_t)(i % CODES);
    shuffle(&g->rng, g->pile, DECK);
    g->pile_pos = 0; g->pile_n = DECK; g->discard_n = 0;
    memset(g->count, 0, sizeof g->count[0] * (size_t)players);
    memset(g->held, 0, sizeof g->held[0] * (size_t)players);
    g->dead = 0;
    memset(g->occ, 0, sizeof g->occ); memset(g->locked, 0, sizeof g->locked); memset(g->chips, 0, sizeof g->chips);
    memset(g->nseq, 0, sizeof g->nseq); memset(g->on_board, 0, sizeof g->on_board);
    memset(g->stats, 0, sizeof g->stats);
    for (int r = 0; r < g->hand; r++)
        for (int s = 0; s < players; s++) draw(g, s);
    int64_t *st = g->stats;
    st[S_WINNER] = st[S_FIRST_SEQ_TURN] = st[S_FIRST_SEQ_TEAM] = -1;
    int seat = 0, team = 0, turn = 0, pass_run = 0;
    for (;;) {
        if (turn == MAX_TURNS) { st[S_END] = END_TURN_CAP; break; }
        turn++;
        /* The dead card. */
        uint64_t d = g->held[seat] & g->dead;
        if (d) {
            take(g, seat, nth_bit(d, below(&g->rng, (uint32_t)popc(d))));
            draw(g, seat);
            st[S_DEAD_SWAPS]++;
        }
        /* The playable codes. */
        uint64_t held = g->held[seat];
        uint64_t codes = held & kind_codes[ORDINARY] & ~g->dead;
        if ((playable_bb[0] & ~g->occ[0]) | (playable_bb[1] & ~g->occ[1])) codes |= held & kind_codes[TWO_EYED];
        uint64_t rem0 = g->occ[0] & ~g->chips[team][0] & ~g->locked[0];
        uint64_t rem1 = g->occ[1] & ~g->chips[team][1] & ~g->locked[1];
        if (rem0 | rem1) codes |= held & kind_codes[ONE_EYED];
        if (!codes) {
            st[S_PASSES]++;
            if (++pass_run == players) { st[S_END] = END_STALEMATE; break; }
        } else {
            pass_run = 0;
            int code = nth_bit(codes, below(&g->rng, (uint32_t)popc(codes)));
            uint64_t lo, hi;
            int kind = card_kind[code];
            if (kind == ONE_EYED) { lo = rem0; hi = rem1; }
            else { lo = card_bb[code][0] & ~g->occ[0]; hi = card_bb[code][1] & ~g->occ[1]; }
            int k = below(&g->rng, (uint32_t)(popc(lo) + popc(hi)));
            int nlo = popc(lo);
            int cell = k < nlo ? nth_bit(lo, k) : 64 + nth_bit(hi, k - nlo);
            take(g, seat, code);
            uint64_t m = 1ull << (cell & 63);
            int w = cell >> 6;
            if (kind == ONE_EYED) {
                int owner = 0;
                while (!(g->chips[owner][w] & m)) owner++;
                g->chips[owner][w] &= ~m; g->on_board[owner]--;
                g->occ[w] &= ~m;
                g->dead &= ~(1ull << card_of_cell[cell]);
                st[S_ONE + team]++;
            } else {
                g->chips[team][w] |= m; g->occ[w] |= m; g->on_board[team]++;
                int c = card_of_cell[cell];
                if (occupied(g, card_cell[c][0]) && occupied(g, card_cell[c][1])) g->dead |= 1ull << c;
                if (kind == TWO_EYED) st[S_TWO + team]++;
                if (declare(g, team, cell) && st[S_FIRST_SEQ_TURN] < 0) { st[S_FIRST_SEQ_TURN] = turn; st[S_FIRST_SEQ_TEAM] = team; }
                if (g->nseq[team] >= g->to_win) { st[S_WINNER] = team; st[S_END] = END_WIN; break; }
            }
            draw(g, seat);
        }
        if (++seat == players) seat = 0;
        if (++team == teams) team = 0;
    }
    st[S_TURNS] = turn;
    for (int u = 0; u < teams; u++) { st[S_SEQ + u] = g->nseq[u]; st[S_CHIPS + u] = g->on_board[u]; }
}

static const int TABLES[10][2] = {{2,2},{3,3},{4,2},{6,2},{6,3},{8,2},{9,3},{10,2},{12,2},{12,3}};
static int hand_size(int players) {
    switch (players) { case 2: return 7; case 3: case 4: return 6; case 6: return 5; case 8: case 9: return 4; default: return 3; }
}
static void setup(Game *g, int players, int teams) {
    memset(g, 0, sizeof *g);
    g->players = players; g->teams = teams; g->hand = hand_size(players); g->to_win = teams == 2 ? 2 : 1;
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(int argc, char **argv) {
    build_tables();
    Game g;
    if (argc >= 7 && !strcmp(argv[1], "dump")) {
        setup(&g, atoi(argv[2]), atoi(argv[3]));
        uint64_t seed = strtoull(argv[4], 0, 10), first = strtoull(argv[5], 0, 10);
        long n = atol(argv[6]);
        for (long i = 0; i < n; i++) {
            play_game(&g, seed, first + (uint64_t)i);
            for (int k = 0; k < 20; k++) printf(k ? ",%lld" : "%lld", (long long)g.stats[k]);
            printf("\n");
        }
        return 0;
    }
    if (argc >= 6 && !strcmp(argv[1], "time")) {
        setup(&g, atoi(argv[2]), atoi(argv[3]));
        long n = atol(argv[4]);
        uint64_t first = strtoull(argv[5], 0, 10);
        int64_t check = 0;
        double t0 = now();
        for (long i = 0; i < n; i++) { play_game(&g, 1, first + (uint64_t)i); check += g.stats[S_TURNS]; }
        printf("%.1f %lld\n", n / (now() - t0), (long long)check);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "bench")) {
        long n = argc >= 3 ? atol(argv[2]) : 200000;
        int rounds = argc >= 4 ? atoi(argv[3]) : 5;
        double best[10] = {0};
        int64_t check = 0;
        for (int r = 0; r < rounds; r++)
            for (int t = 0; t < 10; t++) {
                setup(&g, TABLES[t][0], TABLES[t][1]);
                double t0 = now();
                for (long i = 0; i < n; i++) { play_game(&g, 1, (uint64_t)((r + 1) * n + i)); check += g.stats[S_TURNS]; }
                double rate = n / (now() - t0);
                if (rate > best[t]) best[t] = rate;
            }
        printf("C reference, 1 thread, best of %d rounds of %ld games:", rounds, n);
        for (int t = 0; t < 10; t++) printf("%s %dp/%dt %.0f", t ? "," : "", TABLES[t][0], TABLES[t][1], best[t]);
        printf("  (checksum %lld)\n", (long long)check);
        return 0;
    }
    fprintf(stderr, "usage: %s bench [games] [rounds] | time PLAYERS TEAMS N FIRST | dump PLAYERS TEAMS SEED FIRST N\n",
            argv[0]);
    return 2;
}
