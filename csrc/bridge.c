/* Python objects <-> the compact position, and the rules compiled for the kernel. Everything the
 * Python side hands over is checked here: a malformed state is left to the Python engine. */
#include "bridge.h"

#include <structmember.h>

#ifndef Py_T_OBJECT_EX
#define Py_T_OBJECT_EX T_OBJECT_EX
#endif

KGlobals G;

static inline size_t ptr_hash(PyObject *o, int bits) {
    return (size_t)(((uint64_t)(uintptr_t)o >> 4) * 0x9E3779B97F4A7C15ull >> (64 - bits));
}

static inline int card_of(PyObject *o) {
    size_t i = ptr_hash(o, 8);
    while (G.card_key[i] != NULL) {
        if (G.card_key[i] == o) return G.card_val[i];
        i = (i + 1) & 255;
    }
    return -1;
}

int k_action_of(PyObject *o) {
    size_t i = ptr_hash(o, 11);
    while (G.move_key[i] != NULL) {
        if (G.move_key[i] == o) return G.move_val[i];
        i = (i + 1) & 2047;
    }
    return -1;
}

int k_int_arg(PyObject *o, const char *name, int64_t low, int64_t high, int64_t *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, got %.100s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be an int from %lld to %lld", name, (long long)low, (long long)high);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

/* ---- the rules ------------------------------------------------------------------------- */

static int get_int(PyObject *o, int64_t low, int64_t high, int64_t *out, const char *what) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "kernel rules: %s must be an int", what);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "kernel rules: %s out of range", what);
        return -1;
    }
    *out = v;
    return 0;
}

/* The attribute name of o as an int from low to high. */
static int attr_int(PyObject *o, const char *name, int64_t low, int64_t high, int64_t *out) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (v == NULL) return -1;
    int rc = get_int(v, low, high, out, name);
    Py_DECREF(v);
    return rc;
}

static int attr_flag(PyObject *o, const char *name, uint8_t *out) {
    PyObject *v = PyObject_GetAttrString(o, name);
    if (v == NULL) return -1;
    int truth = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (truth < 0) return -1;
    *out = (uint8_t)truth;
    return 0;
}

/* The attribute name of o, a tuple of n items (a new reference), or NULL with an exception set. */
static PyObject *attr_tuple(PyObject *o, const char *name, Py_ssize_t low, Py_ssize_t high) {
    PyObject *t = PyObject_GetAttrString(o, name);
    if (t == NULL) return NULL;
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < low || PyTuple_GET_SIZE(t) > high) {
        PyErr_Format(PyExc_TypeError, "kernel rules: %s must be a tuple of %zd to %zd items", name, low, high);
        Py_DECREF(t);
        return NULL;
    }
    return t;
}

static int get_masks(PyObject *t, uint64_t *masks, const char *what) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != NCARDS) {
        PyErr_Format(PyExc_TypeError, "kernel rules: %s must be a tuple of %d masks", what, NCARDS);
        return -1;
    }
    for (int c = 0; c < NCARDS; c++) {
        int64_t v;
        if (get_int(PyTuple_GET_ITEM(t, c), 0, ((int64_t)1 << 52) - 1, &v, what) < 0) return -1;
        masks[c] = (uint64_t)v;
    }
    return 0;
}

/* The kinds of a mask whose both suits of that colour and rank are in it. */
static uint64_t colour_mask(uint64_t m) {
    static const int pair[4] = {3, 2, 1, 0};   /* clubs-spades, diamonds-hearts */
    uint64_t out = 0;
    for (int k = 0; k < 52; k++) {
        int other = pair[k / 13] * 13 + k % 13;
        if ((m >> k & 1) && (m >> other & 1)) out |= (uint64_t)1 << k;
    }
    return out;
}

static void free_rules(PyObject *capsule) { PyMem_Free(PyCapsule_GetPointer(capsule, "crapette.kernel.rules")); }

/* The rules of one player (a crapette._core.compiled.CompiledRules, read by field name) into R. */
static int read_player(PyObject *c, int p, KRules *R) {
    int64_t v;
    PyObject *tabs = attr_tuple(c, "tab_masks", 8, 8);
    if (tabs == NULL) return -1;
    for (int i = 0; i < 8; i++) {
        if (get_masks(PyTuple_GET_ITEM(tabs, i), R->tab[p][i], "tab_masks") < 0) {
            Py_DECREF(tabs);
            return -1;
        }
        for (int k = 0; k < NCARDS; k++) R->tabcol[p][i][k] = colour_mask(R->tab[p][i][k]);
    }
    Py_DECREF(tabs);
    if (attr_int(c, "alt_mask", 0, 255, &v) < 0) return -1;
    R->alt_mask[p] = (uint8_t)v;
    PyObject *sources = attr_tuple(c, "tab_sources", 0, 8);
    if (sources == NULL) return -1;
    R->ntab_src[p] = (uint8_t)PyTuple_GET_SIZE(sources);
    for (int i = 0; i < R->ntab_src[p]; i++) {
        if (get_int(PyTuple_GET_ITEM(sources, i), T0, R0 - 1, &v, "tab_sources") < 0) {
            Py_DECREF(sources);
            return -1;
        }
        R->tab_src[p][i] = (uint8_t)v;
    }
    Py_DECREF(sources);
    PyObject *loads = attr_tuple(c, "load_piles", 0, 2);
    if (loads == NULL) return -1;
    R->nload[p] = (uint8_t)PyTuple_GET_SIZE(loads);
    for (int i = 0; i < R->nload[p]; i++) {
        if (get_int(PyTuple_GET_ITEM(loads, i), R0, W0 + 1, &v, "load_piles") < 0
            || (v != R0 + 1 - p && v != W0 + 1 - p)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kernel rules: load_piles must be the opponent's");
            Py_DECREF(loads);
            return -1;
        }
        R->load_pile[p][i] = (uint8_t)v;
    }
    Py_DECREF(loads);
    return 0;
}

/* The weights of a crapette.Scoring, read by name. */
static int read_weights(PyObject *scoring, int64_t *res, int64_t *hand, int64_t *waste) {
    const int64_t big = (int64_t)1 << 40;
    return attr_int(scoring, "reserve_weight", 0, big, res) < 0 || attr_int(scoring, "hand_weight", 0, big, hand) < 0
                   || attr_int(scoring, "waste_weight", 0, big, waste) < 0
               ? -1
               : 0;
}

/* A capsule of KRules from the pair of compiled rules crapette.kernel._compiled gives (players 0 and
 * 1), every field read by its name. */
static PyObject *make_rules(PyObject *pair) {
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "kernel rules: expected the compiled rules of both players");
        return NULL;
    }
    KRules *R = PyMem_Calloc(1, sizeof(KRules));
    if (R == NULL) return PyErr_NoMemory();
    PyObject *c = PyTuple_GET_ITEM(pair, 0), *scoring = NULL, *weights = NULL, *shapes = NULL, *base = NULL;
    PyObject *twins = NULL, *load = NULL, *capsule = NULL;
    int64_t v;
    if (read_player(c, 0, R) < 0 || read_player(PyTuple_GET_ITEM(pair, 1), 1, R) < 0) goto done;
#define K_READ_FLAG(name) \
    if (attr_flag(c, #name, &R->name) < 0) goto done;
    K_FLAG_OPTIONS(K_READ_FLAG)
    K_DERIVED_FLAGS(K_READ_FLAG)
#undef K_READ_FLAG
    if (attr_int(c, "limit", 1, MAX_NUMBER, &R->limit) < 0) goto done;
    if ((load = PyObject_GetAttrString(c, "load_masks")) == NULL || get_masks(load, R->load, "load_masks") < 0) goto done;
    if ((scoring = PyObject_GetAttrString(c, "scoring")) == NULL) goto done;
    if (scoring != Py_None) {
        R->has_scoring = 1;
        if (attr_int(scoring, "win_bonus", 0, (int64_t)1 << 40, &R->bonus) < 0
            || read_weights(scoring, &R->w_res, &R->w_hand, &R->w_waste) < 0)
            goto done;
    }
    if ((weights = PyObject_GetAttrString(c, "card_weights")) == NULL
        || read_weights(weights, &R->h_res, &R->h_hand, &R->h_waste) < 0)
        goto done;
    if ((shapes = PyObject_GetAttrString(c, "shapes")) == NULL) goto done;
    base = attr_tuple(shapes, "base", 8, 8);
    twins = base != NULL ? attr_tuple(shapes, "twins", 8, 8) : NULL;
    if (twins == NULL) goto done;
    for (int i = 0; i < 8; i++) {
        if (get_int(PyTuple_GET_ITEM(base, i), 1, 1 + 7 * 105, &v, "shape base") < 0 || (v - 1) % 105) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kernel rules: shape base out of range");
            goto done;
        }
        R->base[i] = (uint16_t)v;
        if (get_int(PyTuple_GET_ITEM(twins, i), 0, 255, &v, "twins") < 0) goto done;
        R->twins[i] = (uint8_t)(v & ~(1 << i));
    }
    capsule = PyCapsule_New(R, "crapette.kernel.rules", free_rules);
done:
    if (capsule == NULL) PyMem_Free(R);
    Py_XDECREF(scoring);
    Py_XDECREF(weights);
    Py_XDECREF(shapes);
    Py_XDECREF(base);
    Py_XDECREF(twins);
    Py_XDECREF(load);
    return capsule;
}

/* The capsule for rules (new reference), Py_None (new reference) when the kernel does not run
 * them, NULL with an exception set. */
static PyObject *rules_capsule(PyObject *rules) {
    PyObject *found = PyDict_GetItemWithError(G.rules_cache, rules);
    if (found != NULL) {
        Py_INCREF(found);
        return found;
    }
    if (PyErr_Occurred()) return NULL;
    PyObject *desc = PyObject_CallOneArg(G.compile, rules);
    if (desc == NULL) return NULL;
    PyObject *capsule = desc == Py_None ? Py_NewRef(Py_None) : make_rules(desc);
    Py_DECREF(desc);
    if (capsule == NULL) return NULL;
    if (PyDict_GET_SIZE(G.rules_cache) > 512) PyDict_Clear(G.rules_cache);
    if (PyDict_SetItem(G.rules_cache, rules, capsule) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    return capsule;
}

/* ---- states -> positions --------------------------------------------------------------- */

static int small_int(PyObject *o, long low, long high, long *out) {
    if (!PyLong_CheckExact(o)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v < low || v > high) return 0;
    *out = v;
    return 1;
}

static int bool_pair(PyObject *o, uint8_t *out) {
    if (!PyTuple_CheckExact(o) || PyTuple_GET_SIZE(o) != 2) return 0;
    for (int i = 0; i < 2; i++) {
        PyObject *x = PyTuple_GET_ITEM(o, i);
        if (x != Py_True && x != Py_False) return 0;
        out[i] = x == Py_True;
    }
    return 1;
}

static int read_outcome(PyObject *outcome, KPos *P) {
    P->why = WHY_NONE;
    P->winner = -1;
    P->has_scores = 0;
    P->scores[0] = P->scores[1] = 0;
    if (outcome == Py_None) return 1;
    int ok = 0;
    PyObject *winner = PyObject_GetAttrString(outcome, "winner");
    PyObject *reason = winner ? PyObject_GetAttrString(outcome, "reason") : NULL;
    PyObject *scores = reason ? PyObject_GetAttrString(outcome, "scores") : NULL;
    if (scores == NULL) goto done;
    long w = -1;
    if (winner != Py_None && !small_int(winner, 0, 1, &w)) goto done;
    P->winner = (int8_t)w;
    for (int i = WHY_EMPTIED; i <= WHY_LIMIT; i++)
        if (reason == G.reasons[i]) P->why = (uint8_t)i;
    if (P->why == WHY_NONE) goto done;
    if (scores != Py_None) {
        if (!PyTuple_CheckExact(scores) || PyTuple_GET_SIZE(scores) != 2) goto done;
        for (int i = 0; i < 2; i++) {
            long long s = PyLong_AsLongLong(PyTuple_GET_ITEM(scores, i));
            if (s == -1 && PyErr_Occurred()) goto done;
            P->scores[i] = s;
        }
        P->has_scores = 1;
    }
    ok = 1;
done:
    Py_XDECREF(winner);
    Py_XDECREF(reason);
    Py_XDECREF(scores);
    if (PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_Exception)) return -1;
        PyErr_Clear();
        return 0;
    }
    return ok;
}

/* The piles of the tuple into P; 1 if they hold each of the 104 cards once. */
static int read_piles(PyObject *piles, KPos *P) {
    if (!PyTuple_CheckExact(piles) || PyTuple_GET_SIZE(piles) != NPILES) return 0;
    uint64_t seen[2] = {0, 0};
    int total = 0;
    for (int i = 0; i < NPILES; i++) {
        PyObject *pile = PyTuple_GET_ITEM(piles, i);
        if (!PyTuple_CheckExact(pile)) return 0;
        Py_ssize_t n = PyTuple_GET_SIZE(pile);
        if (n > NCARDS - total) return 0;
        int prev = NONE;
        for (Py_ssize_t j = 0; j < n; j++) {
            int c = card_of(PyTuple_GET_ITEM(pile, j));
            if (c < 0 || (seen[c >> 6] >> (c & 63) & 1)) return 0;
            seen[c >> 6] |= (uint64_t)1 << (c & 63);
            P->below[c] = (uint8_t)prev;
            P->where[c] = (uint8_t)i;
            prev = c;
        }
        P->top[i] = (uint8_t)prev;
        P->size[i] = (uint8_t)n;
        total += (int)n;
    }
    return total == NCARDS;
}

/* The turn's moves into P: moves between tableau piles that fit the piles taken back. */
static int read_turn(PyObject *turn, int revisits, KPos *P) {
    if (!PyTuple_CheckExact(turn)) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(turn);
    if (n > MAX_TURN || (n && revisits)) return 0;
    uint8_t size[NPILES];
    memcpy(size, P->size, sizeof size);
    P->nturn = (uint16_t)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        int a = k_action_of(PyTuple_GET_ITEM(turn, i));
        if (a < 0 || !k_shuttle(a)) return 0;
        P->turn[i] = (uint16_t)a;
    }
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        int a = P->turn[i], k = KA.kind[a] == K_STACK ? KA.cnt[a] : 1;
        if (size[KA.tgt[a]] < k) return 0;
        size[KA.tgt[a]] -= (uint8_t)k;
        size[KA.src[a]] += (uint8_t)k;
    }
    return 1;
}

int k_to_pos(PyObject *state, PyObject **caps, const KRules **R, KPos *P) {
    *caps = NULL;
    if (!G.enabled || Py_TYPE(state) != G.state_type) return 0;
    if (state == G.last_state) {
        pos_copy(P, &G.last_pos);
        *caps = Py_NewRef(G.last_caps);
        *R = PyCapsule_GetPointer(G.last_caps, "crapette.kernel.rules");
        return 1;
    }
    PyObject *rules = FIELD(state, F_RULES);
    if (rules == NULL) return 0;
    PyObject *capsule = rules_capsule(rules);
    if (capsule == NULL) return -1;
    if (capsule == Py_None) {
        Py_DECREF(capsule);
        return 0;
    }
    const KRules *rules_c = PyCapsule_GetPointer(capsule, "crapette.kernel.rules");
    PyObject *f[NFIELDS];
    for (int i = 0; i < NFIELDS; i++) {
        f[i] = FIELD(state, i);
        if (f[i] == NULL) goto no;
    }
    long v;
    if (!read_piles(f[F_PILES], P)) goto no;
    if (!small_int(f[F_PLAYER], 0, 1, &v)) goto no;
    P->player = (uint8_t)v;
    if (!PyLong_CheckExact(f[F_COUNT])) goto no;
    {
        int overflow = 0;
        long long count = PyLong_AsLongLongAndOverflow(f[F_COUNT], &overflow);
        if (overflow || count < 0) goto no;
        P->move_count = count;
    }
    if (f[F_DRAWN] != Py_True && f[F_DRAWN] != Py_False) goto no;
    P->drawn = f[F_DRAWN] == Py_True;
    if (!small_int(f[F_PASSES], 0, 2, &v)) goto no;
    P->passes = (uint8_t)v;
    if (!bool_pair(f[F_EXHAUSTED], P->exhausted) || !bool_pair(f[F_PLAYED], P->played)
        || !bool_pair(f[F_HAND_KNOWN], P->hand_known))
        goto no;
    if (!PyTuple_CheckExact(f[F_COUNTERS]) || PyTuple_GET_SIZE(f[F_COUNTERS]) != 0) goto no;
    PyObject *known = f[F_RESERVE_KNOWN];
    if (!PyTuple_CheckExact(known) || PyTuple_GET_SIZE(known) != 2) goto no;
    for (int i = 0; i < 2; i++) {
        if (!small_int(PyTuple_GET_ITEM(known, i), 0, NCARDS - 1, &v)) goto no;
        P->reserve_known[i] = (uint8_t)v;
    }
    if (f[F_FROM_DEAL] != Py_True && f[F_FROM_DEAL] != Py_False) goto no;
    P->from_deal = f[F_FROM_DEAL] == Py_True;
    if (!read_turn(f[F_TURN_MOVES], rules_c->revisits, P)) goto no;
    if (!PyList_CheckExact(f[F_ENGINE]) || PyList_GET_SIZE(f[F_ENGINE]) < 1) goto no;
    int ok = read_outcome(PyList_GET_ITEM(f[F_ENGINE], 0), P);
    if (ok < 0) {
        Py_DECREF(capsule);
        return -1;
    }
    if (!ok) goto no;
    *caps = capsule;
    *R = rules_c;
    return 1;
no:
    Py_DECREF(capsule);
    return 0;
}

void k_remember(PyObject *state, PyObject *caps, const KPos *P) {
    PyObject *old_state = G.last_state, *old_caps = G.last_caps;
    G.last_state = Py_NewRef(state);
    G.last_caps = Py_NewRef(caps);
    pos_copy(&G.last_pos, P);
    Py_XDECREF(old_state);
    Py_XDECREF(old_caps);
}

void k_forget(void) {
    Py_CLEAR(G.last_state);
    Py_CLEAR(G.last_caps);
}

/* ---- positions -> states --------------------------------------------------------------- */

PyObject *k_outcome(const KPos *P) {
    if (P->why == WHY_NONE) Py_RETURN_NONE;
    PyObject *winner = P->winner < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(P->winner);
    PyObject *scores = P->has_scores ? Py_BuildValue("(LL)", (long long)P->scores[0], (long long)P->scores[1])
                                     : Py_NewRef(Py_None);
    PyObject *out = NULL;
    if (winner != NULL && scores != NULL)
        out = PyObject_CallFunctionObjArgs(G.outcome_cls, winner, G.reasons[P->why], scores, NULL);
    Py_XDECREF(winner);
    Py_XDECREF(scores);
    return out;
}

static PyObject *pile_tuple(const KPos *P, int pile) {
    int n = P->size[pile];
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    int c = P->top[pile];
    for (int j = n - 1; j >= 0; j--) {
        PyObject *card = PyTuple_GET_ITEM(G.cards, c);
        PyTuple_SET_ITEM(t, j, Py_NewRef(card));
        c = P->below[c];
    }
    return t;
}

static PyObject *pair_of(const uint8_t *v) { return Py_NewRef(G.pairs[v[0] * 2 + v[1]]); }

PyObject *k_from_pos(PyObject *rules, const KPos *P, PyObject *parent, uint32_t changed) {
    PyObject *old = parent != NULL ? FIELD(parent, F_PILES) : NULL;
    PyObject *piles = PyTuple_New(NPILES), *obj = NULL;
    PyObject *v[NFIELDS] = {NULL};
    if (piles == NULL) return NULL;
    for (int i = 0; i < NPILES; i++) {
        PyObject *pile = old != NULL && !(changed >> i & 1) ? Py_NewRef(PyTuple_GET_ITEM(old, i)) : pile_tuple(P, i);
        if (pile == NULL) goto fail;
        PyTuple_SET_ITEM(piles, i, pile);
    }
    v[F_RULES] = Py_NewRef(rules);
    v[F_PILES] = piles;
    piles = NULL;
    v[F_PLAYER] = PyLong_FromLong(P->player);
    v[F_COUNT] = PyLong_FromLongLong(P->move_count);
    v[F_DRAWN] = PyBool_FromLong(P->drawn);
    v[F_PASSES] = PyLong_FromLong(P->passes);
    v[F_EXHAUSTED] = pair_of(P->exhausted);
    v[F_PLAYED] = pair_of(P->played);
    v[F_COUNTERS] = Py_NewRef(G.empty);
    v[F_HAND_KNOWN] = pair_of(P->hand_known);
    PyObject *known = parent != NULL ? FIELD(parent, F_RESERVE_KNOWN) : NULL;
    long k0 = -1, k1 = -1;
    if (known != NULL && PyTuple_CheckExact(known) && PyTuple_GET_SIZE(known) == 2) {
        small_int(PyTuple_GET_ITEM(known, 0), 0, NCARDS, &k0);
        small_int(PyTuple_GET_ITEM(known, 1), 0, NCARDS, &k1);
    }
    if (k0 == P->reserve_known[0] && k1 == P->reserve_known[1])
        v[F_RESERVE_KNOWN] = Py_NewRef(known);
    else
        v[F_RESERVE_KNOWN] = Py_BuildValue("(ii)", P->reserve_known[0], P->reserve_known[1]);
    v[F_FROM_DEAL] = PyBool_FromLong(P->from_deal);
    if (P->nturn == 0) {
        v[F_TURN_MOVES] = Py_NewRef(G.empty);
    } else if ((v[F_TURN_MOVES] = PyTuple_New(P->nturn)) != NULL) {
        for (int i = 0; i < P->nturn; i++)
            PyTuple_SET_ITEM(v[F_TURN_MOVES], i, Py_NewRef(PyTuple_GET_ITEM(G.moves, P->turn[i])));
    }
    v[F_ENGINE] = PyList_New(G.engine_len);
    if (v[F_ENGINE] != NULL) {
        for (Py_ssize_t i = 1; i < G.engine_len; i++) PyList_SET_ITEM(v[F_ENGINE], i, Py_NewRef(Py_None));
        PyObject *outcome = k_outcome(P);
        if (outcome == NULL) goto fail;
        PyList_SET_ITEM(v[F_ENGINE], 0, outcome);
    }
    for (int i = 0; i < NFIELDS; i++)
        if (v[i] == NULL) goto fail;
    obj = G.state_type->tp_alloc(G.state_type, 0);
    if (obj == NULL) goto fail;
    for (int i = 0; i < NFIELDS; i++) {
        FIELD(obj, i) = v[i];
        v[i] = NULL;
    }
    return obj;
fail:
    Py_XDECREF(piles);
    for (int i = 0; i < NFIELDS; i++) Py_XDECREF(v[i]);
    return NULL;
}

/* ---- init ------------------------------------------------------------------------------ */

static int take_offset(PyObject *descr, PyTypeObject *type, Py_ssize_t *off) {
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type) || !PyType_IsSubtype(type, PyDescr_TYPE(descr))) {
        PyErr_SetString(PyExc_TypeError, "kernel init: a GameState field is not a slot of GameState");
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
    if (m->type != Py_T_OBJECT_EX || m->offset <= 0) {
        PyErr_SetString(PyExc_TypeError, "kernel init: a GameState slot is not an object slot");
        return -1;
    }
    *off = m->offset;
    return 0;
}

/* The numbers of crapette._core.greedy_table into *read (all but the quick scores), each read by its name. */
static int read_scores(PyObject *table, KScores *read) {
    int64_t v;
#define K_READ_SCORE(name) \
    if (attr_int(table, #name, -1000000, 1000000, &v) < 0) return -1; \
    read->name = (int)v;
    K_SCORES(K_READ_SCORE)
#undef K_READ_SCORE
    if (read->HORIZON < 0) {
        PyErr_SetString(PyExc_ValueError, "kernel init: HORIZON must not be negative");
        return -1;
    }
    const char *names[2] = {"WIN", "RESERVE_READY"};
    double *slots[2] = {&read->WIN, &read->RESERVE_READY};
    for (int i = 0; i < 2; i++) {
        PyObject *f = PyObject_GetAttrString(table, names[i]);
        if (f == NULL) return -1;
        double d = PyFloat_Check(f) ? PyFloat_AS_DOUBLE(f) : -1.0;
        Py_DECREF(f);
        if (d < 0.0 || d > 1e15) {
            PyErr_Format(PyExc_ValueError, "kernel init: %s must be a float from 0 to 1e15", names[i]);
            return -1;
        }
        *slots[i] = d;
    }
    return 0;
}

/* The numbers kernel.h is compiled with must be crapette's. */
static int check_layout(PyObject *layout) {
    static const struct {
        const char *name;
        long long value;
    } want[] = {{"F0", F0}, {"T0", T0}, {"R0", R0}, {"H0", H0}, {"W0", W0}, {"MAX_TURN", MAX_TURN}, {"MAX_NUMBER", MAX_NUMBER}};
    const Py_ssize_t n = (Py_ssize_t)(sizeof want / sizeof want[0]);
    if (!PyDict_Check(layout) || PyDict_GET_SIZE(layout) != n) {
        PyErr_Format(PyExc_ValueError, "kernel init: expected a dict of the %zd numbers of the layout", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyDict_GetItemString(layout, want[i].name);
        int overflow = 0;
        long long got = v != NULL && PyLong_Check(v) ? PyLong_AsLongLongAndOverflow(v, &overflow) : -1;
        if (got == -1 && PyErr_Occurred()) return -1;
        if (v == NULL || overflow || got != want[i].value) {
            PyErr_Format(PyExc_ValueError, "kernel init: %s is not %lld, the kernel's", want[i].name, want[i].value);
            return -1;
        }
    }
    return 0;
}

PyObject *k_init(PyObject *config) {
    PyObject *cards, *moves, *kinds, *state_type, *fields, *outcome, *reasons, *turn_end, *compile, *gen, *apply;
    PyObject *random_type, *table, *layout;
    static KScores scores;
    Py_ssize_t engine_len;
    if (!PyArg_ParseTuple(config, "O!O!O!O!O!OO!OOOOnO!OO", &PyTuple_Type, &cards, &PyTuple_Type, &moves,
                          &PyTuple_Type, &kinds, &PyType_Type, &state_type, &PyTuple_Type, &fields, &outcome,
                          &PyTuple_Type, &reasons, &turn_end, &compile, &gen, &apply, &engine_len, &PyType_Type,
                          &random_type, &table, &layout))
        return NULL;
    if (check_layout(layout) < 0 || read_scores(table, &scores) < 0) return NULL;
    if (PyTuple_GET_SIZE(cards) != NCARDS || PyTuple_GET_SIZE(moves) != NACTIONS || PyTuple_GET_SIZE(kinds) != NACTIONS
        || PyTuple_GET_SIZE(fields) != NFIELDS || PyTuple_GET_SIZE(reasons) != 4 || engine_len < 1 || engine_len > 64) {
        PyErr_SetString(PyExc_ValueError, "kernel init: unexpected sizes");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)state_type;
    for (int i = 0; i < NFIELDS; i++) {
        if (take_offset(PyTuple_GET_ITEM(fields, i), type, &G.off[i]) < 0) return NULL;
        if (G.off[i] + (Py_ssize_t)sizeof(PyObject *) > type->tp_basicsize) {
            PyErr_SetString(PyExc_ValueError, "kernel init: a slot lies outside the GameState");
            return NULL;
        }
    }
    memset(G.card_key, 0, sizeof G.card_key);
    for (int c = 0; c < NCARDS; c++) {
        PyObject *o = PyTuple_GET_ITEM(cards, c);
        size_t i = ptr_hash(o, 8);
        while (G.card_key[i] != NULL) i = (i + 1) & 255;
        G.card_key[i] = o;
        G.card_val[i] = (uint8_t)c;
    }
    memset(G.move_key, 0, sizeof G.move_key);
    memset(KA.play, 0xff, sizeof KA.play);
    memset(KA.stack, 0xff, sizeof KA.stack);
    for (int a = 0; a < NACTIONS; a++) {
        PyObject *o = PyTuple_GET_ITEM(moves, a), *k = PyTuple_GET_ITEM(kinds, a);
        int kind, s, t, n;
        if (!PyArg_ParseTuple(k, "iiii", &kind, &s, &t, &n)) return NULL;
        if (kind < K_PLAY || kind > K_PASS || s < 0 || s >= NPILES || t < 0 || t >= NPILES || n < 0 || n > 13
            || (kind == K_STACK && (!is_tab(s) || !is_tab(t) || n < 2 || s == t)) || (kind == K_PLAY && s == t)) {
            PyErr_SetString(PyExc_ValueError, "kernel init: a malformed action");
            return NULL;
        }
        KA.kind[a] = (uint8_t)kind;
        KA.src[a] = (uint8_t)s;
        KA.tgt[a] = (uint8_t)t;
        KA.cnt[a] = (uint8_t)n;
        if (kind == K_PLAY) KA.play[s][t] = (int16_t)a;
        if (kind == K_STACK) KA.stack[s - T0][t - T0][n] = (int16_t)a;
        size_t i = ptr_hash(o, 11);
        while (G.move_key[i] != NULL) i = (i + 1) & 2047;
        G.move_key[i] = o;
        G.move_val[i] = (int16_t)a;
    }
    if ((A_DRAW >= NACTIONS) || KA.kind[A_DRAW] != K_DRAW || KA.kind[A_END] != K_END || KA.kind[A_PASS] != K_PASS) {
        PyErr_SetString(PyExc_ValueError, "kernel init: Draw, End turn and Pass must be the last actions");
        return NULL;
    }
    memcpy(&KS, &scores, offsetof(KScores, quick));
    k_scores_init();
    Py_XSETREF(G.cards, Py_NewRef(cards));
    Py_XSETREF(G.moves, Py_NewRef(moves));
    Py_XSETREF(G.state_type, (PyTypeObject *)Py_NewRef(state_type));
    Py_XSETREF(G.outcome_cls, Py_NewRef(outcome));
    for (int i = 0; i < 4; i++) Py_XSETREF(G.reasons[WHY_EMPTIED + i], Py_NewRef(PyTuple_GET_ITEM(reasons, i)));
    Py_XSETREF(G.turn_end_cls, Py_NewRef(turn_end));
    Py_XSETREF(G.compile, Py_NewRef(compile));
    Py_XSETREF(G.py_generate, Py_NewRef(gen));
    Py_XSETREF(G.py_apply, Py_NewRef(apply));
    Py_XSETREF(G.random_type, Py_NewRef(random_type));
    Py_XSETREF(G.rules_cache, PyDict_New());
    Py_XSETREF(G.empty, PyTuple_New(0));
    for (int i = 0; i < 4; i++) Py_XSETREF(G.pairs[i], Py_BuildValue("(OO)", i & 2 ? Py_True : Py_False, i & 1 ? Py_True : Py_False));
    if (G.rules_cache == NULL || G.empty == NULL || G.pairs[3] == NULL) return NULL;
    G.engine_len = engine_len;
    k_forget();
    G.ready = G.enabled = 1;
    Py_RETURN_NONE;
}
