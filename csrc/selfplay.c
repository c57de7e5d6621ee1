/* Self-play inside the kernel (crapette.selfplay.self_play plays the same games in Python). */
#include "bridge.h"

enum { POLICY_RANDOM = 0, POLICY_FAST = 1, POLICY_GREEDY = 2 };
enum { KEEP_NONE = 0, KEEP_TURNS = 1, KEEP_MOVES = 2 };

/* One game from the position P (the state start), its choices drawn from SplitMix64 started at
 * seed: the states kept (a tuple), the outcome (None if max_moves cut the game short) and the
 * number of moves. Returns 0, or -1 with an exception set. */
int k_self_play_one(const KRules *R, PyObject *rules, PyObject *start, KPos *P, uint64_t seed, int policy,
                    double epsilon, int64_t max_moves, int keep, PyObject **states, PyObject **outcome, int64_t *moves) {
    PyObject *kept = PyList_New(0), *last = Py_NewRef(start);
    uint64_t rng = seed;
    uint32_t since = 0, changed;
    int previous = -1;
    int64_t count = 0;
    uint16_t legal[NACTIONS];
    int scores[NACTIONS];
    if (kept == NULL) goto fail;
    while (P->why == WHY_NONE && count < max_moves) {
        if (keep == KEEP_MOVES || (keep == KEEP_TURNS && P->player != previous)) {
            PyObject *s = count == 0 ? Py_NewRef(start) : k_from_pos(rules, P, last, since);
            if (s == NULL) goto fail;
            int err = PyList_Append(kept, s);
            Py_SETREF(last, s);
            since = 0;
            if (err < 0) goto fail;
        }
        previous = P->player;
        int n = k_moves(R, P, legal), a;
        if (n < 0) goto fail;
        if (n == 0) break;
        if (n == 1) {
            a = legal[0];
        } else if (policy == POLICY_RANDOM || (epsilon > 0.0 && k_unit(&rng) < epsilon)) {
            a = legal[k_below(&rng, n)];
        } else if (policy == POLICY_FAST) {
            a = k_fast_of(P, legal, n);
        } else {
            k_greedy_scores(R, P, legal, n, 1, scores);
            if (PyErr_Occurred()) goto fail;
            int best = 0;
            for (int i = 1; i < n; i++)
                if (scores[i] > scores[best]) best = i;
            a = legal[best];
        }
        if (k_apply(R, P, a, &changed) < 0) {
            PyErr_SetString(PyExc_RuntimeError, "the kernel listed a move it cannot apply");
            goto fail;
        }
        since |= changed;
        count++;
    }
    *outcome = k_outcome(P);
    if (*outcome == NULL) goto fail;
    *states = PyList_AsTuple(kept);
    if (*states == NULL) {
        Py_CLEAR(*outcome);
        goto fail;
    }
    Py_DECREF(kept);
    Py_DECREF(last);
    *moves = count;
    return 0;
fail:
    Py_XDECREF(kept);
    Py_XDECREF(last);
    return -1;
}
