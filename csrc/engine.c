/* Legal moves, applying a move and how a game ends: crapette._core.engine's _generate, apply_move and
 * crapette._core.state.game_end, over the compact position of kernel.h. */
#include "kernel.h"

KActions KA;

static const uint8_t POPCOUNT8[256] = {
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
    B6(0), B6(1), B6(1), B6(2)
#undef B6
#undef B4
#undef B2
};

int k_shuttle(int a) {
    return KA.kind[a] == K_STACK || (KA.kind[a] == K_PLAY && is_tab(KA.src[a]) && is_tab(KA.tgt[a]));
}

/* Move the top n cards of pile s onto pile t (the caller has checked that s holds them). */
static void move_cards(KPos *P, int s, int t, int n) {
    int first = P->top[s], bottom = first;
    for (int i = 1; i < n; i++) bottom = P->below[bottom];
    for (int c = first, i = 0; i < n; i++) {
        P->where[c] = (uint8_t)t;
        if (i < n - 1) c = P->below[c];
    }
    P->top[s] = P->below[bottom];
    P->size[s] -= (uint8_t)n;
    P->below[bottom] = P->top[t];
    P->top[t] = (uint8_t)first;
    P->size[t] += (uint8_t)n;
}

/* The shape code of every card (crapette._core.shapes): 0 off the tableau, else its pile's group base
 * plus the card under it (+1). */
static void shape_of(const KRules *R, const KPos *P, uint16_t *codes) {
    for (int c = 0; c < NCARDS; c++) {
        int w = P->where[c];
        codes[c] = is_tab(w) ? (uint16_t)(R->base[w - T0] + (P->below[c] == NONE ? 0 : P->below[c] + 1)) : 0;
    }
}

/* What a position remembers of its turn under revisits=false (crapette._core.shapes.Run): the shapes
 * reached before it, the cards whose code differs among them, and its own shape. */
typedef struct {
    int kind;               /* 0: no move yet (_FRESH), 1: no more allowed (_FULL), 2: worked out */
    uint64_t moved[2];
    int nseen;
    uint16_t cur[NCARDS];
    uint16_t (*seen)[NCARDS];
    uint16_t local[8][NCARDS];
} KRun;

static inline int moved_has(const KRun *r, int c) { return (int)(r->moved[c >> 6] >> (c & 63) & 1); }

/* Take the turn's moves back one by one (crapette._core.shapes.run_keys). Returns -1 on memory
 * failure (exception set), 0 if the moves do not fit the piles. */
static int run_init(const KRules *R, const KPos *P, KRun *run) {
    run->moved[0] = run->moved[1] = 0;
    run->nseen = 0;
    run->seen = run->local;
    if (P->nturn == 0) { run->kind = 0; return 1; }
    if (P->nturn >= MAX_TURN) { run->kind = 1; return 1; }
    run->kind = 2;
    if (P->nturn > 8) {
        run->seen = PyMem_Malloc(sizeof(uint16_t) * NCARDS * P->nturn);
        if (run->seen == NULL) { PyErr_NoMemory(); return -1; }
    }
    shape_of(R, P, run->cur);
    KPos back;
    pos_copy(&back, P);
    for (int i = P->nturn - 1; i >= 0; i--) {
        int a = P->turn[i];
        int n = KA.kind[a] == K_STACK ? KA.cnt[a] : 1;
        int s = KA.tgt[a], t = KA.src[a];   /* taken back: from the move's target to its source */
        if (back.size[s] < n) return 0;
        int c = back.top[s], same = R->base[s - T0] == R->base[t - T0];
        for (int j = 0; j < n; j++) {
            if (j == n - 1 || !same) run->moved[c >> 6] |= (uint64_t)1 << (c & 63);
            c = back.below[c];
        }
        move_cards(&back, s, t, n);
        shape_of(R, &back, run->seen[run->nseen++]);
    }
    return 1;
}

static void run_free(KRun *run) {
    if (run->seen != run->local) PyMem_Free(run->seen);
    run->seen = run->local;
}

/* The tableau piles in mask that the top n cards of pile s may go to without recreating a shape
 * the turn reached before (crapette._core.engine._unrepeated). */
static int unrepeated(const KRules *R, const KPos *P, const KRun *run, int s, int n, int mask) {
    if (run->kind == 1) return 0;
    uint16_t after[NCARDS];
    int bottom = P->top[s];
    for (int i = 1; i < n; i++) bottom = P->below[bottom];
    for (int i = 0; i < 8; i++) {
        if (!(mask >> i & 1)) continue;
        int t = T0 + i;
        memcpy(after, run->cur, sizeof after);
        after[bottom] = (uint16_t)(R->base[i] + (P->top[t] == NONE ? 0 : P->top[t] + 1));
        if (n > 1 && R->base[i] != R->base[s - T0]) {
            for (int c = P->top[s]; c != bottom; c = P->below[c])
                after[c] = (uint16_t)(after[c] + R->base[i] - R->base[s - T0]);
        }
        for (int j = 0; j < run->nseen; j++) {
            if (memcmp(after, run->seen[j], sizeof after) == 0) { mask &= ~(1 << i); break; }
        }
    }
    return mask;
}

static inline int found_takes(const KPos *P, int f, int c) {
    int t = P->top[f];
    if (t == NONE) return c_rank(c) == 1;
    return c_suit(t) == c_suit(c) && c_rank(t) + 1 == c_rank(c);
}

static int stack_moves(const KRules *R, const KPos *P, int empty, const KRun *run, uint16_t *out, int n) {
    int p = P->player, onto_card, onto_empty;
    if (R->stack_unlimited) {
        onto_card = onto_empty = 13;
    } else {
        int e = POPCOUNT8[empty];   /* R5: k <= 2**e, e the empty tableau piles other than the target */
        onto_card = 1 << e;
        onto_empty = e ? 1 << (e - 1) : 0;
    }
    int alt = R->alt_mask[p];
    int emp = empty & alt;
    for (int j = 0; j < R->ntab_src[p]; j++) {
        int s = R->tab_src[p][j], size = P->size[s];
        if (size < 2 || !run_ok(P->below[P->top[s]], P->top[s])) continue;
        int limit = size < onto_card ? size : onto_card;
        int kc = P->below[P->top[s]];
        for (int k = 2; k <= limit; k++) {
            int mask = 0, kind = c_kind(kc);
            for (int i = 0; i < 8; i++) {
                int t = P->top[T0 + i];
                if ((alt >> i & 1) && t != NONE && (R->tabcol[p][i][t] >> kind & 1)) mask |= 1 << i;
            }
            if (k <= onto_empty) mask |= emp;
            mask &= ~(1 << (s - T0));
            if (mask && run != NULL) {
                if (k == size) mask &= ~(emp & R->twins[s - T0]);
                if (moved_has(run, kc)) mask = unrepeated(R, P, run, s, k, mask);
            }
            for (int i = 0; i < 8; i++)
                if (mask >> i & 1) out[n++] = (uint16_t)KA.stack[s - T0][i][k];
            if (k == size || !run_ok(P->below[kc], kc)) break;
            kc = P->below[kc];
        }
    }
    return n;
}

/* The legal moves of P in the engine's order; returns their count (0 once the game is over),
 * or -1 with an exception set. */
int k_moves(const KRules *R, const KPos *P, uint16_t *out) {
    if (P->why != WHY_NONE) return 0;
    int p = P->player, drawn = P->drawn, res = R0 + p, waste = W0 + p;
    int restricted = R->drawn_first && drawn;
    uint8_t srcs[10];
    int ns = 0;
    if (restricted) {
        srcs[ns++] = (uint8_t)waste;   /* the drawn card must be dealt with before any other move */
    } else {
        srcs[ns++] = (uint8_t)res;
        if (drawn || R->waste_always) srcs[ns++] = (uint8_t)waste;
        for (int j = 0; j < R->ntab_src[p]; j++) srcs[ns++] = R->tab_src[p][j];
    }
    int empty = 0;
    for (int i = 0; i < 8; i++)
        if (P->size[T0 + i] == 0) empty |= 1 << i;
    KRun run;
    KRun *rp = NULL;
    if (!R->revisits) {
        int ok = run_init(R, P, &run);
        if (ok < 0) return -1;
        if (ok == 0) {
            run_free(&run);
            PyErr_SetString(PyExc_ValueError, "the turn's moves do not fit the piles");
            return -1;
        }
        rp = &run;
    }
    uint16_t home[80];
    int nh = 0, n = 0;
    for (int j = 0; j < ns; j++) {
        int s = srcs[j];
        if (P->size[s] == 0) continue;
        int c = P->top[s], kind = c_kind(c);
        for (int f = 0; f < 8; f++)
            if (found_takes(P, f, c)) home[nh++] = (uint16_t)KA.play[s][F0 + f];
        int mask = empty;
        for (int i = 0; i < 8; i++) {
            int t = P->top[T0 + i];
            if (t != NONE && (R->tab[p][i][t] >> kind & 1)) mask |= 1 << i;
        }
        if (is_tab(s)) {
            mask &= ~(1 << (s - T0));
            if (rp != NULL) {
                /* A lone card onto an empty twin pile recreates the position itself. */
                if (P->size[s] == 1) mask &= ~(empty & R->twins[s - T0]);
                if (mask && moved_has(rp, c)) mask = unrepeated(R, P, rp, s, 1, mask);
            }
        }
        for (int i = 0; i < 8; i++)
            if (mask >> i & 1) out[n++] = (uint16_t)KA.play[s][T0 + i];
        for (int l = 0; l < R->nload[p]; l++) {
            int lid = R->load_pile[p][l];
            if (P->size[lid] && (R->load[P->top[lid]] >> kind & 1)) out[n++] = (uint16_t)KA.play[s][lid];
        }
    }
    if (nh) {
        if (R->compulsory) {
            /* Section 10: the reserve's plays to the foundations first, else every available card's. */
            int m = 0;
            if (KA.src[home[0]] == res) {
                for (int i = 0; i < nh; i++)
                    if (KA.src[home[i]] == res) out[m++] = home[i];
            } else {
                for (int i = 0; i < nh; i++) out[m++] = home[i];
            }
            if (rp != NULL) run_free(rp);
            return m;
        }
        memmove(out + nh, out, sizeof(uint16_t) * n);
        memcpy(out, home, sizeof(uint16_t) * nh);
        n += nh;
    }
    if (R->stack_moves && !restricted && (empty || R->stack_unlimited)) n = stack_moves(R, P, empty, rp, out, n);
    if (rp != NULL) run_free(rp);
    if (!(R->fill_first && empty && P->size[res])) {
        if (drawn) {
            if (R->end_turn) out[n++] = A_END;
        } else if (P->size[H0 + p] || P->size[waste]) {
            out[n++] = A_DRAW;
        }
    }
    if (n == 0) out[n++] = A_PASS;
    return n;
}

/* 1 if action is legal in P, 0 if not, -1 with an exception set. */
int k_legal(const KRules *R, const KPos *P, int action) {
    uint16_t moves[NACTIONS];
    int n = k_moves(R, P, moves);
    if (n < 0) return -1;
    for (int i = 0; i < n; i++)
        if (moves[i] == action) return 1;
    return 0;
}

static int64_t penalty(const KRules *R, const KPos *P, int pl) {
    return R->w_res * P->size[R0 + pl] + R->w_hand * P->size[H0 + pl] + R->w_waste * P->size[W0 + pl];
}

static void settle(const KRules *R, KPos *P, int why) {
    P->why = (uint8_t)why;
    P->winner = -1;
    P->has_scores = (uint8_t)R->has_scoring;
    P->scores[0] = P->scores[1] = 0;
    if (!R->has_scoring) return;
    int64_t a = penalty(R, P, 0), b = penalty(R, P, 1);
    if (a == b) return;
    P->winner = a < b ? 0 : 1;
    P->scores[P->winner] = a < b ? b - a : a - b;
}

/* crapette._core.state.game_end, for the endings the kernel runs (ruling R9's order). */
void k_game_end(const KRules *R, KPos *P) {
    for (int pl = 0; pl < 2; pl++) {
        if (P->size[R0 + pl] == 0 && P->size[H0 + pl] == 0 && P->size[W0 + pl] == 0) {
            P->why = WHY_EMPTIED;
            P->winner = (int8_t)pl;
            P->has_scores = (uint8_t)R->has_scoring;
            P->scores[0] = P->scores[1] = 0;
            if (R->has_scoring) P->scores[pl] = R->bonus + penalty(R, P, 1 - pl);
            return;
        }
    }
    if (R->stalemate && P->exhausted[0] && P->exhausted[1]) { settle(R, P, WHY_STALEMATE); return; }
    if (P->passes >= 2) { settle(R, P, WHY_BLOCKED); return; }
    if (P->move_count >= R->limit) { settle(R, P, WHY_LIMIT); return; }
}

/* Whether card c could be played anywhere by the player to move (crapette._core.engine._has_target). */
static int has_target(const KRules *R, const KPos *P, int c) {
    int p = P->player, kind = c_kind(c);
    for (int f = 0; f < 8; f++)
        if (found_takes(P, f, c)) return 1;
    for (int i = 0; i < 8; i++) {
        int t = P->top[T0 + i];
        if (t == NONE || (R->tab[p][i][t] >> kind & 1)) return 1;
    }
    for (int l = 0; l < R->nload[p]; l++) {
        int lid = R->load_pile[p][l];
        if (P->size[lid] && (R->load[P->top[lid]] >> kind & 1)) return 1;
    }
    return 0;
}

/* Marks of the stalemate rule after player pl goes through the hand (crapette._core.engine._mark). */
static void mark(KPos *P, int pl) {
    P->exhausted[pl] = (uint8_t)!P->played[pl];
    P->played[pl] = 0;
}

/* Apply a legal action to P in place (crapette._core.engine.apply_move); *changed gets the piles it
 * changed. Returns 0, or -1 if the action does not fit the piles (it was not legal). */
int k_apply(const KRules *R, KPos *P, int a, uint32_t *changed) {
    if (a < 0 || a >= NACTIONS || P->why != WHY_NONE) return -1;
    int p = P->player, kind = KA.kind[a], ends;
    int res = R0 + p, hand = H0 + p, waste = W0 + p;
    *changed = 0;
    if (kind == K_PLAY || kind == K_STACK) {
        int s = KA.src[a], t = KA.tgt[a], n = kind == K_STACK ? KA.cnt[a] : 1;
        if (P->size[s] < n || s == t) return -1;
    } else if (kind == K_DRAW) {
        if (P->size[hand] == 0 && P->size[waste] == 0) return -1;
    }
    if (!R->revisits) {
        if (k_shuttle(a)) {
            if (P->nturn >= MAX_TURN) return -1;
            P->turn[P->nturn++] = (uint16_t)a;
        } else {
            P->nturn = 0;
        }
    }
    int drawn_before = P->drawn, passes_before = P->passes;
    P->passes = 0;
    P->move_count += 1;
    ends = P->move_count >= R->limit;
    if (kind == K_PLAY) {
        int s = KA.src[a], t = KA.tgt[a];
        move_cards(P, s, t, 1);
        *changed = (1u << s) | (1u << t);
        if (t == R0 + 1 - p) P->reserve_known[1 - p] += 1;   /* the covered card stays known */
        if (s == res || s == waste) {
            if (s == waste) P->drawn = 0;
            else if (P->reserve_known[p]) P->reserve_known[p] -= 1;   /* a known card comes to the top */
            if (R->stalemate) {
                P->played[p] = 1;
                P->exhausted[p] = 0;
            }
            if (P->size[res] == 0 && P->size[hand] == 0 && P->size[waste] == 0) ends = 1;
        }
    } else if (kind == K_STACK) {
        move_cards(P, KA.src[a], KA.tgt[a], KA.cnt[a]);
        *changed = (1u << KA.src[a]) | (1u << KA.tgt[a]);
    } else if (kind == K_DRAW) {
        int turnover = P->size[hand] == 0;
        *changed = (1u << hand) | (1u << waste);
        if (turnover) {
            /* R4: the waste is turned over, unshuffled, to form the new hand. */
            int prev = NONE, c = P->top[waste];
            while (c != NONE) {
                int next = P->below[c];
                P->below[c] = (uint8_t)prev;
                P->where[c] = (uint8_t)hand;
                prev = c;
                c = next;
            }
            P->top[hand] = (uint8_t)prev;
            P->size[hand] = P->size[waste];
            P->top[waste] = NONE;
            P->size[waste] = 0;
            if (R->stalemate) {
                mark(P, p);
                ends = ends || (P->exhausted[0] && P->exhausted[1]);
            }
        }
        /* A hand formed from the (face-up) waste is known, in order, until it runs out. */
        P->hand_known[p] = (uint8_t)((turnover || P->hand_known[p]) && P->size[hand] > 1);
        int c = P->top[hand];
        move_cards(P, hand, waste, 1);
        if (has_target(R, P, c)) {
            P->drawn = 1;
        } else {
            P->drawn = 0;
            P->player = (uint8_t)(1 - p);
        }
    } else {
        P->drawn = 0;
        P->player = (uint8_t)(1 - p);
        /* A pass made while this turn's drawn card lies on the waste is not a stuck pass (R6). */
        if (kind == K_PASS && !drawn_before) {
            P->passes = (uint8_t)(passes_before + 1);
            ends = ends || P->passes >= 2;
            if (R->stalemate && P->size[hand] == 0 && P->size[waste] == 0) {
                /* R8: with no hand left to go through, the pass counts as the turnover. */
                mark(P, p);
                ends = ends || (P->exhausted[0] && P->exhausted[1]);
            }
        }
    }
    if (ends) k_game_end(R, P);
    return 0;
}

int k_reveals(const KPos *P, int a) {
    int p = P->player;
    if (KA.kind[a] == K_DRAW) return P->size[H0 + p] && !P->hand_known[p];
    if (KA.kind[a] == K_PLAY) return KA.src[a] == R0 + p && P->size[R0 + p] > 1 && !P->reserve_known[p];
    return 0;
}
