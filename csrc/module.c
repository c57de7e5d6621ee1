/* crapette._ckernel: the functions crapette.kernel calls. Each takes Python objects, checks them,
 * and returns None where the kernel does not run the state's rules (the caller then uses the
 * Python engine). The engine's two hooks (legal_moves, apply_move) hand such states to the
 * Python functions themselves. */
#include "bridge.h"

static int not_ready(void) {
    if (!G.ready) {
        PyErr_SetString(PyExc_RuntimeError, "crapette._ckernel.init() has not been called");
        return 1;
    }
    return 0;
}

static int player_arg(PyObject *o, int *player) {
    long v;
    if (!PyLong_Check(o) || PyBool_Check(o) || (v = PyLong_AsLong(o)) < 0 || v > 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return -1;
    }
    *player = (int)v;
    return 0;
}

static PyObject *moves_tuple(const uint16_t *moves, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(PyTuple_GET_ITEM(G.moves, moves[i])));
    return t;
}

/* legal_moves(state, cache): the engine's listing hook. */
static PyObject *m_legal_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "legal_moves(state, cache)");
        return NULL;
    }
    if (not_ready()) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok < 0) return NULL;
    if (ok == 0) return PyObject_Vectorcall(G.py_generate, args, 2, NULL);
    uint16_t moves[NACTIONS];
    int n = k_moves(R, &P, moves);
    PyObject *out = n < 0 ? NULL : moves_tuple(moves, n);
    if (out != NULL) k_remember(args[0], caps, &P);
    Py_DECREF(caps);
    return out;
}

/* apply_move(state, cache, move): the engine's hook, called with a legal move. */
static PyObject *m_apply_move(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "apply_move(state, cache, move)");
        return NULL;
    }
    if (not_ready()) return NULL;
    int a = k_action_of(args[2]);
    PyObject *caps = NULL;
    const KRules *R;
    KPos P;
    int ok = a < 0 ? 0 : k_to_pos(args[0], &caps, &R, &P);
    if (ok < 0) return NULL;
    uint32_t changed;
    if (ok == 1 && k_apply(R, &P, a, &changed) < 0) {
        Py_DECREF(caps);
        ok = 0;
    }
    if (ok == 0) return PyObject_Vectorcall(G.py_apply, args, 3, NULL);
    PyObject *child = k_from_pos(FIELD(args[0], F_RULES), &P, args[0], changed);
    if (child != NULL) k_remember(child, caps, &P);
    Py_DECREF(caps);
    return child;
}

/* The legal moves of P that leave its turn segment (crapette._core.turns.segment_exits), in legal order, into
 * moves; their count, or -1 on error. */
static int exits_of(const KRules *R, const KPos *P, uint16_t *moves) {
    int n = k_moves(R, P, moves), m = 0;
    for (int i = 0; i < n; i++) {
        int kind = KA.kind[moves[i]];
        if (kind == K_DRAW || kind == K_END || kind == K_PASS || k_reveals(P, moves[i])) moves[m++] = moves[i];
    }
    return n < 0 ? -1 : m;
}

/* A value of a position for a player: k_evaluate, k_playout or k_careful_playout (which may play on in P). */
typedef double (*KValueOf)(const KRules *R, KPos *P, int player);

static double evaluate_of(const KRules *R, KPos *P, int player) { return k_evaluate(R, P, player); }

/* NAME(state, player) -> float | None: value(R, P, player) of the state's position; None where the kernel does
 * not run the state. */
static PyObject *state_value(PyObject *const *args, Py_ssize_t nargs, const char *usage, KValueOf value) {
    int player;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    if (not_ready() || player_arg(args[1], &player) < 0) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    double found = value(R, &P, player);
    Py_DECREF(caps);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(found);
}

/* evaluate(state, player) -> float | None */
static PyObject *m_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return state_value(args, nargs, "evaluate(state, player)", evaluate_of);
}

/* playout(state, player) -> float | None */
static PyObject *m_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return state_value(args, nargs, "playout(state, player)", k_playout);
}

/* careful_playout(state, player) -> float | None: playout() played on by the greedy heuristic with its look-ahead. */
static PyObject *m_careful_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    return state_value(args, nargs, "careful_playout(state, player)", k_careful_playout);
}

/* path_playout(state, moves, swaps, count, player) -> float | None
 *
 * playout() of the state the legal `moves` lead to from `state`, its piles moved by `swaps` ((to, from) pairs of
 * pile numbers, each to-pile taking the from-pile's cards as they were before any swap) and its move count set to
 * `count`: the planning bot's judgement of a candidate (crapette.bots.planner._Candidate.judged, then
 * Playout().evaluate) without the states between. None where the kernel does not run the state or a move is
 * not legal on the way (the Python engine then decides). */
static PyObject *m_path_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int player;
    int64_t count;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "path_playout(state, moves, swaps, count, player)");
        return NULL;
    }
    if (not_ready() || player_arg(args[4], &player) < 0) return NULL;
    if (k_int_arg(args[3], "path_playout(): count", 0, INT64_MAX, &count) < 0) return NULL;
    PyObject *moves = args[1], *swaps = args[2];
    if (!PyTuple_CheckExact(moves) || !PyTuple_CheckExact(swaps)) {
        PyErr_SetString(PyExc_TypeError, "path_playout(): moves and swaps must be tuples");
        return NULL;
    }
    int to[NPILES], from[NPILES];
    Py_ssize_t nswaps = PyTuple_GET_SIZE(swaps);
    if (nswaps > NPILES) {
        PyErr_SetString(PyExc_ValueError, "path_playout(): more swaps than piles");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nswaps; i++) {
        PyObject *pair = PyTuple_GET_ITEM(swaps, i);
        int64_t a, b;
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "path_playout(): a swap must be a (to, from) pair of piles");
            return NULL;
        }
        if (k_int_arg(PyTuple_GET_ITEM(pair, 0), "path_playout(): a swap's pile", 0, NPILES - 1, &a) < 0
            || k_int_arg(PyTuple_GET_ITEM(pair, 1), "path_playout(): a swap's pile", 0, NPILES - 1, &b) < 0)
            return NULL;
        to[i] = (int)a;
        from[i] = (int)b;
    }
    PyObject *caps;
    const KRules *R;
    KPos *P = PyMem_Malloc(sizeof(KPos));
    if (P == NULL) return PyErr_NoMemory();
    int ok = k_to_pos(args[0], &caps, &R, P);
    if (ok <= 0) {
        PyMem_Free(P);
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject *out = NULL;
    uint16_t legal[NACTIONS];
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(moves); i++) {
        int a = k_action_of(PyTuple_GET_ITEM(moves, i)), n = k_moves(R, P, legal), found = 0;
        if (n < 0) goto done;
        for (int j = 0; j < n && !found; j++) found = legal[j] == a;
        uint32_t changed;
        if (!found || k_apply(R, P, a, &changed) < 0) {
            out = Py_NewRef(Py_None);
            goto done;
        }
    }
    if (nswaps) {
        uint8_t top[NPILES], size[NPILES];
        memcpy(top, P->top, sizeof top);
        memcpy(size, P->size, sizeof size);
        for (Py_ssize_t i = 0; i < nswaps; i++) {
            P->top[to[i]] = top[from[i]];
            P->size[to[i]] = size[from[i]];
        }
        for (Py_ssize_t i = 0; i < nswaps; i++) {
            int c = P->top[to[i]];
            for (int k = 0; k < P->size[to[i]]; k++, c = P->below[c]) P->where[c] = (uint8_t)to[i];
        }
    }
    P->move_count = count;
    double value = k_playout(R, P, player);
    if (!PyErr_Occurred()) out = PyFloat_FromDouble(value);
done:
    PyMem_Free(P);
    Py_DECREF(caps);
    return out;
}

/* fast_move(state) -> Move | None */
static PyObject *m_fast_move(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "fast_move(state)");
        return NULL;
    }
    if (not_ready()) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    int a = k_fast_move(R, &P);
    Py_DECREF(caps);
    if (a == -2) return NULL;
    if (a < 0) Py_RETURN_NONE;
    return Py_NewRef(PyTuple_GET_ITEM(G.moves, a));
}

/* exits(state) -> tuple[Move, ...] | None: the legal moves that reveal a card or end the turn (Draw,
 * End turn, Pass, and plays of the reserve that uncover a card nobody has seen), in legal order. */
static PyObject *m_exits(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "exits(state)");
        return NULL;
    }
    if (not_ready()) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    uint16_t moves[NACTIONS];
    int m = exits_of(R, &P, moves);
    Py_DECREF(caps);
    if (m < 0) return NULL;
    return moves_tuple(moves, m);
}

/* shuffle(rng, items) -> True | None: random.Random.shuffle(items) done here, drawing the same numbers from
 * rng.getrandbits as Python's shuffle does, when rng is exactly a random.Random and items a list. */
static PyObject *m_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shuffle(rng, items)");
        return NULL;
    }
    if (not_ready()) return NULL;
    PyObject *rng = args[0], *items = args[1];
    if (!G.enabled || (PyObject *)Py_TYPE(rng) != G.random_type || !PyList_CheckExact(items)) Py_RETURN_NONE;
    PyObject *bits = PyObject_GetAttrString(rng, "getrandbits");
    if (bits == NULL) return NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        unsigned long long n = (unsigned long long)i + 1, r;
        int k = 0;
        while (n >> k) k++;
        PyObject *width = PyLong_FromLong(k);
        if (width == NULL) { Py_DECREF(bits); return NULL; }
        do {
            PyObject *x = PyObject_CallOneArg(bits, width);
            if (x == NULL) { Py_DECREF(width); Py_DECREF(bits); return NULL; }
            r = PyLong_AsUnsignedLongLong(x);
            Py_DECREF(x);
            if (r == (unsigned long long)-1 && PyErr_Occurred()) { Py_DECREF(width); Py_DECREF(bits); return NULL; }
        } while (r >= n);
        Py_DECREF(width);
        if (i >= PyList_GET_SIZE(items) || (Py_ssize_t)r >= PyList_GET_SIZE(items)) {
            Py_DECREF(bits);
            PyErr_SetString(PyExc_RuntimeError, "the list changed size during the shuffle");
            return NULL;
        }
        PyObject *a = PyList_GET_ITEM(items, i), *b = PyList_GET_ITEM(items, (Py_ssize_t)r);
        PyList_SET_ITEM(items, i, b);
        PyList_SET_ITEM(items, (Py_ssize_t)r, a);
    }
    Py_DECREF(bits);
    Py_RETURN_TRUE;
}

/* The actions of a sequence of moves; 0 if one is not a move. */
static int actions_of(PyObject *seq, uint16_t *out, Py_ssize_t room, Py_ssize_t *n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of moves");
    if (fast == NULL) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    int ok = len <= room;
    for (Py_ssize_t i = 0; ok && i < len; i++) {
        int a = k_action_of(PySequence_Fast_GET_ITEM(fast, i));
        if (a < 0) ok = 0;
        else out[i] = (uint16_t)a;
    }
    Py_DECREF(fast);
    *n = len;
    return ok;
}

/* greedy_scores(state, moves, lookahead) -> list[int] | None (None also if a move is not legal) */
static PyObject *m_greedy_scores(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "greedy_scores(state, moves, lookahead)");
        return NULL;
    }
    if (not_ready()) return NULL;
    int lookahead = PyObject_IsTrue(args[2]);
    if (lookahead < 0) return NULL;
    uint16_t given[NACTIONS], legal[NACTIONS];
    Py_ssize_t n;
    int ok = actions_of(args[1], given, NACTIONS, &n);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *caps;
    const KRules *R;
    KPos P;
    ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *out = NULL;
    int nl = k_moves(R, &P, legal);
    if (nl < 0) goto done;
    uint64_t is_legal[(NACTIONS + 63) / 64] = {0};
    for (int i = 0; i < nl; i++) is_legal[legal[i] >> 6] |= (uint64_t)1 << (legal[i] & 63);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!(is_legal[given[i] >> 6] >> (given[i] & 63) & 1)) {
            out = Py_NewRef(Py_None);
            goto done;
        }
    }
    int scores[NACTIONS];
    k_greedy_scores(R, &P, given, (int)n, lookahead, scores);
    if (PyErr_Occurred() || (out = PyList_New(n)) == NULL) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyLong_FromLong(scores[i]);
        if (s == NULL) { Py_CLEAR(out); goto done; }
        PyList_SET_ITEM(out, i, s);
    }
done:
    Py_DECREF(caps);
    return out;
}

/* turn_ends(state, limit) -> (list[TurnEnd], complete) | None */
static PyObject *m_turn_ends(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "turn_ends(state, limit)");
        return NULL;
    }
    if (not_ready()) return NULL;
    int64_t limit;   /* the node count is an int32_t */
    if (k_int_arg(args[1], "turn_ends(): limit", 1, INT32_MAX, &limit) < 0) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos *root = PyMem_Malloc(sizeof(KPos));
    if (root == NULL) return PyErr_NoMemory();
    int ok = k_to_pos(args[0], &caps, &R, root);
    if (ok <= 0) {
        PyMem_Free(root);
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    }
    KEnds ends;
    PyObject *list = NULL, **states = NULL, **paths = NULL, *out = NULL;
    int rc = k_turn_ends(R, root, (long)limit, &ends);
    PyMem_Free(root);
    if (rc < 0) goto done;
    PyObject *rules = FIELD(args[0], F_RULES);
    states = PyMem_Calloc((size_t)ends.count, sizeof(PyObject *));
    paths = PyMem_Calloc((size_t)ends.count, sizeof(PyObject *));
    list = PyList_New(ends.count);
    if (states == NULL || paths == NULL || list == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (int32_t i = 0; i < ends.count; i++) {
        KNode *node = &ends.nodes[i];
        if (node->parent < 0) {
            states[i] = Py_NewRef(args[0]);
            paths[i] = Py_NewRef(G.empty);
        } else {
            PyObject *before = paths[node->parent];
            Py_ssize_t n = PyTuple_GET_SIZE(before);
            states[i] = k_from_pos(rules, k_node_pos(&ends, i), states[node->parent], node->changed);
            paths[i] = PyTuple_New(n + 1);
            if (states[i] == NULL || paths[i] == NULL) goto done;
            for (Py_ssize_t j = 0; j < n; j++) PyTuple_SET_ITEM(paths[i], j, Py_NewRef(PyTuple_GET_ITEM(before, j)));
            PyTuple_SET_ITEM(paths[i], n, Py_NewRef(PyTuple_GET_ITEM(G.moves, node->move)));
        }
        PyObject *end = PyObject_CallFunctionObjArgs(G.turn_end_cls, paths[i], states[i], NULL);
        if (end == NULL) goto done;
        PyList_SET_ITEM(list, i, end);
    }
    out = Py_BuildValue("(OO)", list, ends.complete ? Py_True : Py_False);
done:
    if (states != NULL)
        for (int32_t i = 0; i < ends.count; i++) Py_XDECREF(states[i]);
    if (paths != NULL)
        for (int32_t i = 0; i < ends.count; i++) Py_XDECREF(paths[i]);
    PyMem_Free(states);
    PyMem_Free(paths);
    Py_XDECREF(list);
    if (rc == 0) k_ends_free(&ends);
    Py_DECREF(caps);
    return out;
}

/* Whether `player`'s reserve top could be played with `player` to move and no card drawn: the position as it is
 * if so, else a copy made so (crapette.evaluation._reserve_playable). -1 on error. */
static int reserve_playable(const KRules *R, const KPos *P, int player) {
    if (P->size[R0 + player] == 0) return 0;
    uint16_t moves[NACTIONS];
    int n;
    if (P->player == player && !P->drawn) {
        n = k_moves(R, P, moves);
    } else {
        KPos *Q = PyMem_Malloc(sizeof(KPos));
        if (Q == NULL) { PyErr_NoMemory(); return -1; }
        pos_copy(Q, P);
        Q->player = (uint8_t)player;
        Q->drawn = 0;
        Q->passes = 0;
        Q->nturn = 0;
        n = k_moves(R, Q, moves);
        PyMem_Free(Q);
    }
    if (n < 0) return -1;
    for (int i = 0; i < n; i++)
        if (KA.kind[moves[i]] == K_PLAY && KA.src[moves[i]] == R0 + player) return 1;
    return 0;
}

/* crapette.evaluation.FittedValue().evaluate(state, player) with the weights w[7], term by term in its order
 * (the same double: the kernel is built without contracting products into fused multiply-adds). */
static int fitted_value(const KRules *R, const KPos *P, int player, const double *w, double *out) {
    if (P->why != WHY_NONE) {
        *out = P->winner < 0 ? 0.0 : P->winner == player ? 1e9 : -1e9;
        return 0;
    }
    int other = 1 - player;
    double total = w[0] * (double)P->size[R0 + player];
    total = total + w[1] * (double)(P->size[H0 + player] + P->size[W0 + player]);
    total = total + w[2] * (double)P->size[R0 + other];
    total = total + w[3] * (double)(P->size[H0 + other] + P->size[W0 + other]);
    for (int side = 0; side < 2; side++) {
        if (w[4 + side] == 0.0) continue;
        int playable = reserve_playable(R, P, side == 0 ? player : other);
        if (playable < 0) return -1;
        total = total + w[4 + side] * (double)playable;
    }
    if (w[6] != 0.0) {
        int empty = 0;
        for (int t = T0; t < T0 + 8; t++) empty += P->size[t] == 0;
        total = total + w[6] * (double)empty;
    }
    *out = total;
    return 0;
}

typedef struct {
    double value;
    int32_t index;
} KRanked;

/* Best value first, then in the listing's order (Python's stable sort, reverse=True). */
static int ranked_order(const void *a, const void *b) {
    const KRanked *x = a, *y = b;
    if (x->value != y->value) return x->value > y->value ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The TurnEnd of node i of `ends`, made with its parents' (states and paths memoised; NULL on error). */
static PyObject *end_of(PyObject *state, PyObject *rules, const KEnds *ends, int32_t i, PyObject **states,
                        PyObject **paths, int32_t *chain) {
    int32_t depth = 0;   /* a node's ancestors are distinct nodes: at most ends->count of them */
    for (int32_t j = i; j >= 0 && states[j] == NULL; j = ends->nodes[j].parent) chain[depth++] = j;
    while (depth > 0) {
        int32_t j = chain[--depth];
        const KNode *node = &ends->nodes[j];
        if (node->parent < 0) {
            states[j] = Py_NewRef(state);
            paths[j] = Py_NewRef(G.empty);
            continue;
        }
        PyObject *before = paths[node->parent];
        Py_ssize_t n = PyTuple_GET_SIZE(before);
        states[j] = k_from_pos(rules, k_node_pos(ends, j), states[node->parent], node->changed);
        paths[j] = PyTuple_New(n + 1);
        if (states[j] == NULL || paths[j] == NULL) return NULL;
        for (Py_ssize_t m = 0; m < n; m++) PyTuple_SET_ITEM(paths[j], m, Py_NewRef(PyTuple_GET_ITEM(before, m)));
        PyTuple_SET_ITEM(paths[j], n, Py_NewRef(PyTuple_GET_ITEM(G.moves, node->move)));
    }
    return PyObject_CallFunctionObjArgs(G.turn_end_cls, paths[i], states[i], NULL);
}

/* The piles' cards (their indexes, bottom to top) of P as bytes, into ids[NPILES] (new references); -1 on error. */
static int pile_bytes(const KPos *P, PyObject **ids) {
    char buf[NCARDS];
    for (int p = 0; p < NPILES; p++) {
        int n = P->size[p], c = P->top[p];
        for (int i = n - 1; i >= 0; i--) {
            buf[i] = (char)c;
            c = P->below[c];
        }
        ids[p] = PyBytes_FromStringAndSize(buf, n);
        if (ids[p] == NULL) {
            for (int q = 0; q < p; q++) Py_DECREF(ids[q]);
            return -1;
        }
    }
    return 0;
}

/* bytes a < b as Python orders them. */
static int bytes_less(PyObject *a, PyObject *b) {
    Py_ssize_t n = PyBytes_GET_SIZE(a), m = PyBytes_GET_SIZE(b);
    int c = memcmp(PyBytes_AS_STRING(a), PyBytes_AS_STRING(b), (size_t)(n < m ? n : m));
    return c < 0 || (c == 0 && n < m);
}

/* crapette.bots.planner._Keys.arrange of `state` (whose position is P): (key, swaps), a new reference or NULL.
 * groups: a tuple, per group of more than one interchangeable pile, of (the piles as given, the same in
 * ascending order), as groups_ok checked it. */
static PyObject *arranged_key(PyObject *state, const KPos *P, PyObject *groups) {
    PyObject *ids[NPILES], *out = NULL, *swaps = NULL, *key = NULL, *piles = NULL, *turn = NULL;
    if (pile_bytes(P, ids) < 0) return NULL;
    swaps = PyList_New(0);
    if (swaps == NULL) goto done;
    PyObject *turn_moves = FIELD(state, F_TURN_MOVES);
    Py_ssize_t nturn = PyTuple_GET_SIZE(turn_moves);
    if (nturn == 0) {   /* turn moves name piles: then the order stays */
        for (Py_ssize_t g = 0; g < PyTuple_GET_SIZE(groups); g++) {
            PyObject *pair = PyTuple_GET_ITEM(groups, g);
            PyObject *group = PyTuple_GET_ITEM(pair, 0), *ascending = PyTuple_GET_ITEM(pair, 1);
            Py_ssize_t n = PyTuple_GET_SIZE(group);
            int place[NPILES], order[NPILES];
            for (Py_ssize_t i = 0; i < n; i++) {
                place[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(group, i));
                order[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(ascending, i));
            }
            /* A stable sort of the places in ascending order by their piles. */
            for (Py_ssize_t i = 1; i < n; i++) {
                int x = order[i];
                Py_ssize_t j = i;
                while (j > 0 && bytes_less(ids[x], ids[order[j - 1]])) {
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = x;
            }
            PyObject *old[NPILES];
            for (Py_ssize_t i = 0; i < n; i++) old[i] = ids[order[i]];
            for (Py_ssize_t i = 0; i < n; i++) Py_INCREF(old[i]);
            for (Py_ssize_t i = 0; i < n; i++) {
                int to = place[i], src = order[i];
                if (to == src) continue;
                PyObject *swap = Py_BuildValue("(ii)", to, src);
                int bad = swap == NULL || PyList_Append(swaps, swap) < 0;
                Py_XDECREF(swap);
                if (bad) {
                    for (Py_ssize_t k = 0; k < n; k++) Py_DECREF(old[k]);
                    goto done;
                }
            }
            for (Py_ssize_t i = 0; i < n; i++) Py_SETREF(ids[place[i]], old[i]);   /* hands over old's reference */
        }
    }
    piles = PyTuple_New(NPILES);
    turn = PyTuple_New(nturn);
    if (piles == NULL || turn == NULL) goto done;
    for (int p = 0; p < NPILES; p++) PyTuple_SET_ITEM(piles, p, Py_NewRef(ids[p]));
    for (Py_ssize_t i = 0; i < nturn; i++) {
        PyObject *text = PyObject_Str(PyTuple_GET_ITEM(turn_moves, i));
        if (text == NULL) goto done;
        PyTuple_SET_ITEM(turn, i, text);
    }
    key = PyTuple_Pack(10, piles, FIELD(state, F_PLAYER), FIELD(state, F_DRAWN), FIELD(state, F_PASSES),
                       FIELD(state, F_EXHAUSTED), FIELD(state, F_PLAYED), FIELD(state, F_COUNTERS),
                       FIELD(state, F_HAND_KNOWN), FIELD(state, F_RESERVE_KNOWN), turn);
    if (key == NULL) goto done;
    PyObject *swapped = PyList_AsTuple(swaps);
    out = swapped == NULL ? NULL : PyTuple_New(2);
    if (out == NULL) {
        Py_XDECREF(swapped);
        Py_DECREF(key);
        goto done;
    }
    PyTuple_SET_ITEM(out, 0, key);
    PyTuple_SET_ITEM(out, 1, swapped);
done:
    for (int p = 0; p < NPILES; p++) Py_DECREF(ids[p]);
    Py_XDECREF(swaps);
    Py_XDECREF(piles);
    Py_XDECREF(turn);
    return out;
}

/* Whether groups is a tuple of (piles, the same piles in ascending order): two tuples of as many distinct pile
 * numbers, at most NPILES. */
static int groups_ok(PyObject *groups) {
    if (!PyTuple_CheckExact(groups)) return 0;
    for (Py_ssize_t g = 0; g < PyTuple_GET_SIZE(groups); g++) {
        PyObject *pair = PyTuple_GET_ITEM(groups, g);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return 0;
        PyObject *a = PyTuple_GET_ITEM(pair, 0), *b = PyTuple_GET_ITEM(pair, 1);
        if (!PyTuple_CheckExact(a) || !PyTuple_CheckExact(b) || PyTuple_GET_SIZE(a) != PyTuple_GET_SIZE(b)
            || PyTuple_GET_SIZE(a) > NPILES)
            return 0;
        uint32_t in_a = 0, in_b = 0;
        long last = -1;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a); i++) {
            PyObject *x = PyTuple_GET_ITEM(a, i), *y = PyTuple_GET_ITEM(b, i);
            if (!PyLong_CheckExact(x) || !PyLong_CheckExact(y)) return 0;
            long u = PyLong_AsLong(x), v = PyLong_AsLong(y);
            if (u < 0 || u >= NPILES || v <= last || v >= NPILES || (in_a >> u & 1)) {
                PyErr_Clear();
                return 0;
            }
            in_a |= 1u << u;
            in_b |= 1u << v;
            last = v;   /* the second is in ascending order */
        }
        if (in_a != in_b) return 0;
    }
    return 1;
}

/* ranked_ends(state, limit, weights, most, groups) -> (list[(TurnEnd, exits, value, key, swaps)], complete) | None
 *
 * The turn ends of turn_ends(state, limit) that the planning bot's stock ranking may put among its `most`
 * best candidates (crapette.bots.planner._segment_candidates): each end valued by FittedValue with
 * `weights` (7 floats) for the player to move, best first and in the listing's order among equals; an end
 * with no way out (exits) that does not finish the game left out; until the ways out reach `most` (1
 * when the listing is not complete), then every end of the same value as the last. Each with the key and
 * swaps that put its interchangeable piles (groups, see groups_ok) in order (_Keys.arrange). */
static PyObject *m_ranked_ends(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "ranked_ends(state, limit, weights, most, groups)");
        return NULL;
    }
    if (not_ready()) return NULL;
    int64_t limit, most;
    if (k_int_arg(args[1], "ranked_ends(): limit", 1, INT32_MAX, &limit) < 0) return NULL;
    if (k_int_arg(args[3], "ranked_ends(): most", 1, INT32_MAX, &most) < 0) return NULL;
    double w[7];
    if (!PyTuple_Check(args[2]) || PyTuple_GET_SIZE(args[2]) != 7) {
        PyErr_SetString(PyExc_TypeError, "ranked_ends(): weights must be a tuple of 7 floats");
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        PyObject *x = PyTuple_GET_ITEM(args[2], i);
        if (!PyFloat_CheckExact(x)) {
            PyErr_SetString(PyExc_TypeError, "ranked_ends(): weights must be a tuple of 7 floats");
            return NULL;
        }
        w[i] = PyFloat_AS_DOUBLE(x);
        if (!(w[i] - w[i] == 0.0)) {
            PyErr_SetString(PyExc_ValueError, "ranked_ends(): weights must be finite");
            return NULL;
        }
    }
    /* A copy of the list, checked once: Python code runs meanwhile (the TurnEnd class, the moves' str), and the
     * copy stays as checked whatever it does to the list. */
    PyObject *groups = PyList_CheckExact(args[4]) ? PyList_AsTuple(args[4]) : NULL;
    if (groups == NULL || !groups_ok(groups)) {
        Py_XDECREF(groups);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "ranked_ends(): groups must be a list of (piles, piles in ascending order)");
        return NULL;
    }
    PyObject *caps;
    const KRules *R;
    KPos *root = PyMem_Malloc(sizeof(KPos));
    if (root == NULL) {
        Py_DECREF(groups);
        return PyErr_NoMemory();
    }
    int ok = k_to_pos(args[0], &caps, &R, root);
    if (ok <= 0) {
        PyMem_Free(root);
        Py_DECREF(groups);
        return ok < 0 ? NULL : Py_NewRef(Py_None);
    }
    int player = root->player;
    KEnds ends;
    KRanked *ranked = NULL;
    int32_t *chain = NULL;
    PyObject *list = NULL, **states = NULL, **paths = NULL, *out = NULL;
    int rc = k_turn_ends(R, root, (long)limit, &ends);
    PyMem_Free(root);
    if (rc < 0) goto done;
    if (!ends.complete) most = 1;
    PyObject *rules = FIELD(args[0], F_RULES);
    ranked = PyMem_Malloc(sizeof(KRanked) * (size_t)(ends.count ? ends.count : 1));
    chain = PyMem_Malloc(sizeof(int32_t) * (size_t)(ends.count ? ends.count : 1));
    states = PyMem_Calloc((size_t)ends.count + 1, sizeof(PyObject *));
    paths = PyMem_Calloc((size_t)ends.count + 1, sizeof(PyObject *));
    list = PyList_New(0);
    if (ranked == NULL || chain == NULL || states == NULL || paths == NULL || list == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    for (int32_t i = 0; i < ends.count; i++) {
        ranked[i].index = i;
        if (fitted_value(R, k_node_pos(&ends, i), player, w, &ranked[i].value) < 0) goto done;
    }
    qsort(ranked, (size_t)ends.count, sizeof(KRanked), ranked_order);
    int64_t wanted = 0;
    int have_cutoff = 0;
    double cutoff = 0.0;
    for (int32_t r = 0; r < ends.count; r++) {
        double value = ranked[r].value;
        if (have_cutoff && value != cutoff) break;
        int32_t i = ranked[r].index;
        const KPos *P = k_node_pos(&ends, i);
        int over = P->why != WHY_NONE, m = 0;
        uint16_t moves[NACTIONS];
        if (!over) {
            m = exits_of(R, P, moves);
            if (m < 0) goto done;
            if (m == 0) continue;
        }
        PyObject *item = PyTuple_New(5);
        if (item == NULL) goto done;
        PyObject *part = end_of(args[0], rules, &ends, i, states, paths, chain);
        if (part != NULL) {
            PyTuple_SET_ITEM(item, 0, part);
            part = moves_tuple(moves, m);
        }
        if (part != NULL) {
            PyTuple_SET_ITEM(item, 1, part);
            part = PyFloat_FromDouble(value);
        }
        PyObject *keyed = NULL;
        if (part != NULL) {
            PyTuple_SET_ITEM(item, 2, part);
            keyed = arranged_key(states[i], P, groups);
        }
        if (keyed == NULL) {
            Py_DECREF(item);   /* a tuple drops the items it holds, and skips the NULLs */
            goto done;
        }
        PyTuple_SET_ITEM(item, 3, Py_NewRef(PyTuple_GET_ITEM(keyed, 0)));
        PyTuple_SET_ITEM(item, 4, Py_NewRef(PyTuple_GET_ITEM(keyed, 1)));
        Py_DECREF(keyed);
        int appended = PyList_Append(list, item);
        Py_DECREF(item);
        if (appended < 0) goto done;
        wanted += over ? 1 : m;
        if (!have_cutoff && wanted >= most) {
            have_cutoff = 1;
            cutoff = value;
        }
    }
    out = Py_BuildValue("(OO)", list, ends.complete ? Py_True : Py_False);
done:
    if (states != NULL)
        for (int32_t i = 0; i < ends.count; i++) Py_XDECREF(states[i]);
    if (paths != NULL)
        for (int32_t i = 0; i < ends.count; i++) Py_XDECREF(paths[i]);
    PyMem_Free(states);
    PyMem_Free(paths);
    PyMem_Free(ranked);
    PyMem_Free(chain);
    Py_XDECREF(list);
    if (rc == 0) k_ends_free(&ends);
    Py_DECREF(caps);
    Py_DECREF(groups);
    return out;
}

int k_self_play_one(const KRules *R, PyObject *rules, PyObject *start, KPos *P, uint64_t seed, int policy,
                    double epsilon, int64_t max_moves, int keep, PyObject **states, PyObject **outcome, int64_t *moves);

/* self_play(starts, seeds, policy, epsilon, max_moves, keep) -> list[(states, outcome, moves)] | None */
static PyObject *m_self_play(PyObject *self, PyObject *args) {
    PyObject *starts, *seeds, *policy_o, *epsilon_o, *max_moves_o, *keep_o;
    int64_t policy, keep, max_moves;
    if (!PyArg_ParseTuple(args, "O!O!OOOO", &PyList_Type, &starts, &PyList_Type, &seeds, &policy_o, &epsilon_o,
                          &max_moves_o, &keep_o))
        return NULL;
    if (not_ready()) return NULL;
    if (k_int_arg(policy_o, "self_play(): policy", 0, 2, &policy) < 0
        || k_int_arg(max_moves_o, "self_play(): max_moves", 0, INT64_MAX, &max_moves) < 0
        || k_int_arg(keep_o, "self_play(): keep", 0, 2, &keep) < 0)
        return NULL;
    if (!PyFloat_Check(epsilon_o) && !(PyLong_Check(epsilon_o) && !PyBool_Check(epsilon_o))) {
        PyErr_SetString(PyExc_TypeError, "self_play(): epsilon must be a number");
        return NULL;
    }
    double epsilon = PyFloat_AsDouble(epsilon_o);
    if (epsilon == -1.0 && PyErr_Occurred()) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(starts);
    if (!(epsilon >= 0.0 && epsilon <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "self_play(): epsilon must be from 0.0 to 1.0");
        return NULL;
    }
    if (PyList_GET_SIZE(seeds) != n) {
        PyErr_SetString(PyExc_ValueError, "self_play(): one seed a start");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {   /* every seed checked before any game is played */
        PyObject *seed = PyList_GET_ITEM(seeds, i);
        if (!PyLong_Check(seed) || PyBool_Check(seed)) {
            PyErr_SetString(PyExc_TypeError, "self_play(): a seed must be an int");
            return NULL;
        }
        if (PyLong_AsUnsignedLongLong(seed) == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "self_play(): a seed must be an int from 0 to 2**64 - 1");
            return NULL;
        }
    }
    KPos *P = PyMem_Malloc(sizeof(KPos));
    if (P == NULL) return PyErr_NoMemory();
    PyObject *out = PyList_New(n);
    if (out == NULL) { PyMem_Free(P); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *start = PyList_GET_ITEM(starts, i), *caps, *states, *outcome;
        const KRules *R;
        uint64_t seed = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(seeds, i));
        if (seed == (uint64_t)-1 && PyErr_Occurred()) goto fail;
        int ok = k_to_pos(start, &caps, &R, P);
        if (ok < 0) goto fail;
        if (ok == 0) {
            Py_DECREF(out);
            PyMem_Free(P);
            Py_RETURN_NONE;
        }
        int64_t moves;
        int rc = k_self_play_one(R, FIELD(start, F_RULES), start, P, seed, (int)policy, epsilon, max_moves, (int)keep, &states,
                                 &outcome, &moves);
        Py_DECREF(caps);
        if (rc < 0) goto fail;
        PyObject *game = Py_BuildValue("(NNL)", states, outcome, (long long)moves);
        if (game == NULL) goto fail;
        PyList_SET_ITEM(out, i, game);
    }
    PyMem_Free(P);
    return out;
fail:
    Py_DECREF(out);
    PyMem_Free(P);
    return NULL;
}

static PyObject *m_init(PyObject *self, PyObject *config) { return k_init(config); }

static PyObject *m_set_enabled(PyObject *self, PyObject *flag) {
    int on = PyObject_IsTrue(flag);
    if (on < 0) return NULL;
    G.enabled = on;
    k_forget();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"init", m_init, METH_O, "init(config): the objects of crapette the kernel works with."},
    {"set_enabled", m_set_enabled, METH_O, "set_enabled(flag): switch the kernel on or off."},
    {"legal_moves", (PyCFunction)(void (*)(void))m_legal_moves, METH_FASTCALL, "legal_moves(state, cache)"},
    {"apply_move", (PyCFunction)(void (*)(void))m_apply_move, METH_FASTCALL, "apply_move(state, cache, move)"},
    {"evaluate", (PyCFunction)(void (*)(void))m_evaluate, METH_FASTCALL, "evaluate(state, player)"},
    {"playout", (PyCFunction)(void (*)(void))m_playout, METH_FASTCALL, "playout(state, player)"},
    {"careful_playout", (PyCFunction)(void (*)(void))m_careful_playout, METH_FASTCALL, "careful_playout(state, player)"},
    {"path_playout", (PyCFunction)(void (*)(void))m_path_playout, METH_FASTCALL, "path_playout(state, moves, swaps, count, player)"},
    {"fast_move", (PyCFunction)(void (*)(void))m_fast_move, METH_FASTCALL, "fast_move(state)"},
    {"greedy_scores", (PyCFunction)(void (*)(void))m_greedy_scores, METH_FASTCALL, "greedy_scores(state, moves, lookahead)"},
    {"turn_ends", (PyCFunction)(void (*)(void))m_turn_ends, METH_FASTCALL, "turn_ends(state, limit)"},
    {"exits", (PyCFunction)(void (*)(void))m_exits, METH_FASTCALL, "exits(state)"},
    {"ranked_ends", (PyCFunction)(void (*)(void))m_ranked_ends, METH_FASTCALL, "ranked_ends(state, limit, weights, most, groups)"},
    {"shuffle", (PyCFunction)(void (*)(void))m_shuffle, METH_FASTCALL, "shuffle(rng, items)"},
    {"self_play", m_self_play, METH_VARARGS, "self_play(starts, seeds, policy, epsilon, max_moves, keep)"},
    {"net", m_net, METH_VARARGS, "net(hidden_rows, output, clip): a value network for value()"},
    {"value", (PyCFunction)(void (*)(void))m_value, METH_FASTCALL, "value(state, player, net)"},
    {"value_playout", (PyCFunction)(void (*)(void))m_value_playout, METH_FASTCALL, "value_playout(state, player, net)"},
    {"encode", (PyCFunction)(void (*)(void))m_encode, METH_FASTCALL, "encode(state, player)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "crapette._ckernel",
    "The compiled kernel of crapette (see crapette.kernel): C twins of the engine's hot paths.", -1, methods,
};

/* The module, with OPTIONS: the RuleSet options the kernel runs, by name (kernel.h). */
PyMODINIT_FUNC PyInit__ckernel(void) {
    static const char *const known[] = {
#define K_OPTION_NAME(name) #name,
        K_FLAG_OPTIONS(K_OPTION_NAME)
#undef K_OPTION_NAME
        K_OTHER_OPTIONS};
    const Py_ssize_t n = (Py_ssize_t)(sizeof known / sizeof known[0]);
    PyObject *m = PyModule_Create(&module), *names = m != NULL ? PyTuple_New(n) : NULL;
    if (names == NULL) {
        Py_XDECREF(m);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyUnicode_FromString(known[i]);
        if (name == NULL) {
            Py_DECREF(names);
            Py_DECREF(m);
            return NULL;
        }
        PyTuple_SET_ITEM(names, i, name);
    }
    if (PyModule_AddObject(m, "OPTIONS", names) < 0) {
        Py_DECREF(names);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
