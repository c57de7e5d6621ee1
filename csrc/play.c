/* The bots' heuristics over the compact position: crapette._play.greedy's greedy_scores and fast_move,
 * crapette.evaluation's card count and playout, and the generator of the kernel's self-play. Every
 * number they score or count with is crapette._core.greedy_table's, read at init (csrc/bridge.c). */
#include "kernel.h"

KScores KS;

static int kind_of_pile(int pile) {   /* 0 foundation, 1 tableau, 2 reserve, 3 hand, 4 waste */
    return pile < T0 ? 0 : pile < R0 ? 1 : pile < H0 ? 2 : pile < W0 ? 3 : 4;
}

static int source_bonus(int s) {
    int k = kind_of_pile(s);
    return k == 2 ? KS.FOUNDATION_FROM_RESERVE : k == 4 ? KS.FOUNDATION_FROM_WASTE : KS.FOUNDATION_FROM_TABLEAU;
}

/* The score of a Play that does not move between tableau piles, and onto a non-empty target
 * (the empty target's score is 10 less for plays onto the tableau). */
static int play_score(int s, int t, int target_filled) {
    int sk = kind_of_pile(s), tk = kind_of_pile(t);
    int keep = target_filled ? KS.KEEP_EMPTY : 0;
    if (tk == 0) return KS.FOUNDATION + source_bonus(s);
    if (sk == 2) return tk == 2 ? KS.RESERVE_TO_RESERVE : tk == 4 ? KS.RESERVE_TO_WASTE : KS.RESERVE_TO_TABLEAU + keep;
    if (sk == 4) return tk == 2 ? KS.WASTE_TO_RESERVE : tk == 4 ? KS.WASTE_TO_WASTE : KS.WASTE_TO_TABLEAU + keep;
    return tk == 2 ? KS.TABLEAU_TO_RESERVE : tk == 4 ? KS.TABLEAU_TO_WASTE : KS.USELESS;
}

double k_evaluate(const KRules *R, const KPos *P, int player) {
    if (P->why != WHY_NONE) {
        if (P->winner < 0) return 0.0;
        return P->winner == player ? KS.WIN : -KS.WIN;
    }
    int other = 1 - player;
    int64_t mine = R->h_res * P->size[R0 + player] + R->h_hand * P->size[H0 + player] + R->h_waste * P->size[W0 + player];
    int64_t theirs = R->h_res * P->size[R0 + other] + R->h_hand * P->size[H0 + other] + R->h_waste * P->size[W0 + other];
    double value = (double)(theirs - mine);
    if (P->player == player) {
        /* The player is to move: a reserve card that can be played next is as good as gone. */
        uint16_t moves[NACTIONS];
        int n = k_moves(R, P, moves);
        for (int i = 0; i < n; i++)
            if (KA.kind[moves[i]] == K_PLAY && KA.src[moves[i]] == R0 + player) return value + KS.RESERVE_READY;
    }
    return value;
}

static int quick_of(int a, int filled) {
    switch (KA.kind[a]) {
    case K_PLAY: return play_score(KA.src[a], KA.tgt[a], filled);
    case K_STACK: return KS.USELESS;
    case K_DRAW: return KS.DRAW;
    case K_END: return KS.END_TURN;
    default: return 0;
    }
}

/* The quick scores of every action, once the actions and the scores are read (csrc/bridge.c, k_init). */
void k_scores_init(void) {
    for (int a = 0; a < NACTIONS; a++) {
        KS.quick[a][0] = quick_of(a, 0);
        KS.quick[a][1] = quick_of(a, 1);
    }
}

static inline int quick_score(const KPos *P, int a) { return KS.quick[a][P->size[KA.tgt[a]] != 0]; }

int k_fast_of(const KPos *P, const uint16_t *moves, int n) {
    if (n == 1) return moves[0];
    int best = moves[0], top = quick_score(P, best);
    for (int i = 1; i < n; i++) {
        int score = quick_score(P, moves[i]);
        if (score > top) { best = moves[i]; top = score; }
    }
    return best;
}

/* The greedy move without look-ahead; -1 if there is none (the game is over), -2 on error. */
int k_fast_move(const KRules *R, const KPos *P) {
    uint16_t moves[NACTIONS];
    int n = k_moves(R, P, moves);
    if (n < 0) return -2;
    if (n == 0) return -1;
    return k_fast_of(P, moves, n);
}

/* What a move between tableau piles opens for the next move (crapette._play.greedy.opens). */
static int shuffle_score(const KRules *R, const KPos *P, int a, const uint64_t *before) {
    KPos after;
    uint32_t changed;
    pos_copy(&after, P);
    if (k_apply(R, &after, a, &changed) < 0) return KS.USELESS;
    if (after.player != P->player || after.why != WHY_NONE) return KS.USELESS;
    uint16_t moves[NACTIONS];
    int n = k_moves(R, &after, moves), best = KS.USELESS;
    for (int i = 0; i < n; i++) {
        int m = moves[i];
        if ((before[m >> 6] >> (m & 63) & 1) || KA.kind[m] != K_PLAY) continue;
        int sk = kind_of_pile(KA.src[m]);
        if (KA.tgt[m] < T0) return KS.OPENS_FOUNDATION;
        if (sk == 2) best = best > KS.OPENS_RESERVE ? best : KS.OPENS_RESERVE;
        else if (sk == 4) best = best > KS.OPENS_WASTE ? best : KS.OPENS_WASTE;
    }
    return best;
}

/* crapette._play.greedy.greedy_scores of the n actions in moves (each must be legal in P). */
int k_greedy_scores(const KRules *R, const KPos *P, const uint16_t *moves, int n, int lookahead, int *scores) {
    uint64_t before[(NACTIONS + 63) / 64] = {0};
    for (int i = 0; i < n; i++) before[moves[i] >> 6] |= (uint64_t)1 << (moves[i] & 63);
    for (int i = 0; i < n; i++) {
        int a = moves[i];
        if (KA.kind[a] == K_PLAY) {
            int s = KA.src[a], t = KA.tgt[a];
            if (is_tab(s) && is_tab(t))
                scores[i] = lookahead ? shuffle_score(R, P, a, before) : KS.USELESS;
            else
                scores[i] = play_score(s, t, P->size[t] != 0);
        } else if (KA.kind[a] == K_STACK) {
            scores[i] = lookahead ? shuffle_score(R, P, a, before) : KS.USELESS;
        } else {
            scores[i] = quick_score(P, a);
        }
    }
    return 0;
}

/* The greedy heuristic's move with its look-ahead among moves (crapette._play.greedy.greedy_choice): the first
 * in legal order with the top score. */
static int careful_of(const KRules *R, const KPos *P, const uint16_t *moves, int n) {
    if (n == 1) return moves[0];
    int scores[NACTIONS];
    k_greedy_scores(R, P, moves, n, 1, scores);
    int best = 0;
    for (int i = 1; i < n; i++)
        if (scores[i] > scores[best]) best = i;
    return moves[best];
}

/* Play on to the end of the opponent's next turn (crapette.evaluation.Playout.play_on): by the greedy move
 * without look-ahead (greedy_move), or with it where careful (careful_move). */
static void play_on_by(const KRules *R, KPos *P, int player, int careful) {
    int turns_left = P->player == player ? 2 : 1, last = P->player;
    uint16_t moves[NACTIONS];
    uint32_t changed;
    for (int i = 0; i < KS.HORIZON; i++) {
        if (P->why != WHY_NONE) break;
        int n = k_moves(R, P, moves);
        if (n <= 0) break;
        int move = careful ? careful_of(R, P, moves, n) : k_fast_of(P, moves, n);
        if (k_apply(R, P, move, &changed) < 0) break;
        if (P->player != last) {
            last = P->player;
            if (--turns_left == 0) break;
        }
    }
}

void k_play_on(const KRules *R, KPos *P, int player) { play_on_by(R, P, player, 0); }

/* Play on greedily to the end of the opponent's next turn, then evaluate for player. */
double k_playout(const KRules *R, KPos *P, int player) {
    k_play_on(R, P, player);
    return k_evaluate(R, P, player);
}

/* The same, played on by the greedy heuristic with its look-ahead. */
double k_careful_playout(const KRules *R, KPos *P, int player) {
    play_on_by(R, P, player, 1);
    return k_evaluate(R, P, player);
}

/* SplitMix64, the generator of the deal's shuffle (crapette.shuffled_deck). */
uint64_t k_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform number below n (1 <= n), by rejection as the shuffle draws one. */
int k_below(uint64_t *state, int n) {
    uint64_t limit = UINT64_MAX - (UINT64_MAX % (uint64_t)n + 1) % (uint64_t)n;
    /* limit + 1 == 2**64 - 2**64 % n (it wraps to 0 when n divides 2**64) */
    for (;;) {
        uint64_t x = k_next(state);
        if (limit == UINT64_MAX || x <= limit) return (int)(x % (uint64_t)n);
    }
}

/* A uniform double in [0, 1) from the top 53 bits. */
double k_unit(uint64_t *state) {
    return (double)(k_next(state) >> 11) * (1.0 / 9007199254740992.0);
}
