/* The learned value of crapette.value: the counts of encode() and the integer network over them,
 * and the kernel's functions that run it (value, value_playout, encode, net). Every count and
 * every sum is what crapette/value.py computes, in integers, so the results are the same. */
#include "bridge.h"

#define NFEAT 103
#define BUCKETS 6
#define NMOVES 11
#define NWHERE 9
#define SCALE_BITS 12
#define MAXHIDDEN 256

typedef struct {
    int hidden, clip;
    int64_t w1[MAXHIDDEN][NFEAT + 1]; /* per hidden unit: the bias, then a weight per count */
    int64_t w2[MAXHIDDEN + 1];        /* the output's bias, then a weight per hidden unit */
} KNet;

static void needs_of(const KPos *P, int needs[4][2]) {
    int tops[4][8], n[4] = {0, 0, 0, 0};
    for (int f = F0; f < F0 + 8; f++) {
        if (P->size[f]) {
            int c = P->top[f];
            int s = c_suit(c);
            tops[s][n[s]++] = c_rank(c);
        }
    }
    for (int s = 0; s < 4; s++) {
        /* sorted ascending, padded with 0 in front to two */
        for (int i = 1; i < n[s]; i++)
            for (int j = i; j > 0 && tops[s][j - 1] > tops[s][j]; j--) {
                int t = tops[s][j];
                tops[s][j] = tops[s][j - 1];
                tops[s][j - 1] = t;
            }
        int r0, r1;
        if (n[s] == 0) r0 = r1 = 0;
        else if (n[s] == 1) { r0 = 0; r1 = tops[s][0]; }
        else { r0 = tops[s][0]; r1 = tops[s][1]; }
        needs[s][0] = r0 + 1;
        needs[s][1] = r1 + 1;
    }
}

static int distance(int c, const int needs[4][2]) {
    int rank = c_rank(c), low = needs[c_suit(c)][0], high = needs[c_suit(c)][1];
    int d = rank >= high ? rank - high : rank - low;
    return d >= 0 ? d : 0;
}

static int bucket(int d) { return d < BUCKETS - 1 ? d : BUCKETS - 1; }

static void moves_of(const KRules *R, const KPos *P, int who, int32_t *counts) {
    for (int i = 0; i < NMOVES; i++) counts[i] = 0;
    if (P->why != WHY_NONE) return;
    KPos copy;
    const KPos *Q = P;
    if (P->player != who || P->drawn) {
        pos_copy(&copy, P);
        copy.player = (uint8_t)who;
        copy.drawn = 0;
        copy.passes = 0;
        copy.nturn = 0;
        Q = &copy;
    }
    uint16_t moves[NACTIONS];
    int n = k_moves(R, Q, moves);
    int reserve = R0 + who, waste = W0 + who;
    for (int i = 0; i < n; i++) {
        int a = moves[i];
        switch (KA.kind[a]) {
        case K_PLAY: {
            int s = KA.src[a], t = KA.tgt[a];
            int kind = t < T0 ? 0 : t < R0 ? 1 : 2;
            if (s == reserve) counts[kind]++;
            else if (s == waste) counts[3 + kind]++;
            else if (t < T0) counts[6]++;
            else if (t < R0) counts[7]++;
            break;
        }
        case K_STACK: counts[8]++; break;
        case K_DRAW: counts[9]++; break;
        case K_END: counts[10]++; break;
        default: break;
        }
    }
}

/* crapette.value.encode(state, player) into out[NFEAT]. */
void k_encode(const KRules *R, const KPos *P, int player, int32_t *out) {
    int needs[4][2];
    needs_of(P, needs);
    uint8_t seen[NCARDS];
    memset(seen, 0, sizeof seen);
    int32_t where[2][NWHERE];
    memset(where, 0, sizeof where);
    int k = 0;
    for (int side = 0; side < 2; side++) {
        int who = side == 0 ? player : 1 - player;
        int reserve = R0 + who, hand = H0 + who, waste = W0 + who;
        out[k++] = P->size[reserve];
        out[k++] = P->size[hand];
        out[k++] = P->size[waste];
        out[k++] = P->size[reserve] == 0;
        int32_t *tops = out + k;
        for (int i = 0; i < 3 * BUCKETS; i++) tops[i] = 0;
        if (P->size[reserve]) {
            int c = P->top[reserve];
            seen[c] = 1;
            int d = distance(c, needs);
            tops[bucket(d)] = 1;
            if (d < 2) where[d][2 + side]++;
        }
        if (P->size[waste]) {
            int c = P->top[waste];
            int d = distance(c, needs);
            tops[BUCKETS + bucket(d)] = 1;
            if (d < 2) where[d][4 + 2 * side]++;
            seen[c] = 1;
            for (int u = P->below[c]; u != NONE; u = P->below[u]) {
                seen[u] = 1;
                int du = distance(u, needs);
                tops[2 * BUCKETS + bucket(du)]++;
                if (du < 2) where[du][5 + 2 * side]++;
            }
        }
        k += 3 * BUCKETS;
        moves_of(R, P, who, out + k);
        k += NMOVES;
    }
    int32_t tableau[2 * BUCKETS];
    memset(tableau, 0, sizeof tableau);
    int32_t empty = 0, cards = 0, over = 0;
    for (int t = T0; t < T0 + 8; t++) {
        if (!P->size[t]) {
            empty++;
            continue;
        }
        cards += P->size[t];
        int above = 0;   /* cards over this one: 0 for the top */
        for (int c = P->top[t]; c != NONE; c = P->below[c], above++) {
            seen[c] = 1;
            int d = distance(c, needs);
            int top = above == 0;
            tableau[(top ? 0 : BUCKETS) + bucket(d)]++;
            if (d < 2) {
                where[d][top ? 0 : 1]++;
                if (d == 0) over += above;
            }
        }
    }
    for (int i = 0; i < 2 * BUCKETS; i++) out[k++] = tableau[i];
    int32_t founded = 0, started = 0;
    for (int f = F0; f < F0 + 8; f++) {
        founded += P->size[f];
        started += P->size[f] != 0;
        for (int c = P->top[f]; P->size[f] && c != NONE; c = P->below[c]) seen[c] = 1;
    }
    out[k++] = empty;
    out[k++] = cards;
    out[k++] = founded;
    out[k++] = started;
    for (int d = 0; d < 2; d++) {
        int32_t unseen = 0;
        for (int s = 0; s < 4; s++) {
            int ranks[2] = {needs[s][0] + d, needs[s][1] + d};
            int nr = ranks[0] == ranks[1] ? 1 : 2;
            for (int i = 0; i < nr; i++) {
                int rank = ranks[i];
                if (rank > 13) continue;
                for (int deck = 0; deck < 2; deck++) {
                    int c = deck * 52 + s * 13 + rank - 1;
                    if (!seen[c] && distance(c, needs) == d) unseen++;
                }
            }
        }
        where[d][8] = unseen;
        for (int i = 0; i < NWHERE; i++) out[k++] = where[d][i];
    }
    out[k++] = over;
    out[k++] = P->player == player;
    out[k++] = P->drawn && P->player == player;
}

/* The network's output for the counts x, scaled by 2**24 (crapette.value.ValueNet.raw). */
static int64_t net_raw(const KNet *N, const int32_t *x) {
    /* Products, not shifts: a weight may be negative. net() has checked that no sum can overflow. */
    int64_t top = (int64_t)N->clip * ((int64_t)1 << SCALE_BITS);
    int64_t total = N->w2[0] * ((int64_t)1 << SCALE_BITS);
    for (int j = 0; j < N->hidden; j++) {
        const int64_t *w = N->w1[j];
        int64_t acc = w[0];
        for (int i = 0; i < NFEAT; i++)
            if (x[i]) acc += (int64_t)x[i] * w[i + 1];
        if (acc > 0) total += N->w2[j + 1] * (acc < top ? acc : top);
    }
    return total;
}

static const char *NET_NAME = "crapette.value net";

static void net_free(PyObject *capsule) { PyMem_Free(PyCapsule_GetPointer(capsule, NET_NAME)); }

/* The largest weight the kernel takes, and the largest count encode() gives (at most 104 cards, or
 * 16 cards of distance 0 with at most 103 cards over each): every product and sum below is bounded. */
#define MAX_WEIGHT ((int64_t)1 << 40)
#define MAX_COUNT ((int64_t)1 << 11)
/* A sum the network may reach must stay under this (2**62: room to spare in 64 bits). */
#define MAX_SUM ((int64_t)1 << 62)

static int64_t int_item(PyObject *seq, Py_ssize_t i, int *bad) {
    PyObject *o = PySequence_GetItem(seq, i);
    if (o == NULL) { *bad = 1; return 0; }
    int64_t v = 0;
    if (k_int_arg(o, "a weight of the network", -MAX_WEIGHT, MAX_WEIGHT, &v) < 0) *bad = 1;
    Py_DECREF(o);
    return v;
}

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

/* 0 if no sum of net_raw can reach MAX_SUM for counts from 0 to MAX_COUNT, else -1 with a ValueError.
 * Each bound is checked before it is added, so the check itself cannot overflow. */
static int check_sums(const KNet *N) {
    int64_t top = (int64_t)N->clip * ((int64_t)1 << SCALE_BITS);   /* at most 2**28 */
    for (int j = 0; j < N->hidden; j++) {
        int64_t bound = abs64(N->w1[j][0]);   /* at most 2**40 + 103 * 2**51 < 2**58 */
        for (int i = 1; i <= NFEAT; i++) bound += abs64(N->w1[j][i]) * MAX_COUNT;
        if (bound >= MAX_SUM) goto overflow;
    }
    int64_t bound = abs64(N->w2[0]) * ((int64_t)1 << SCALE_BITS);   /* at most 2**52 */
    for (int j = 1; j <= N->hidden; j++) {
        int64_t w = abs64(N->w2[j]);
        if (w > (MAX_SUM - bound) / top) goto overflow;   /* w * top would take the bound past MAX_SUM */
        bound += w * top;
    }
    if (bound >= MAX_SUM) goto overflow;
    return 0;
overflow:
    PyErr_SetString(PyExc_ValueError, "the network's sums could overflow the kernel's 64-bit integers");
    return -1;
}

/* net(hidden_rows, output, clip) -> capsule */
PyObject *m_net(PyObject *self, PyObject *args) {
    PyObject *rows, *output, *clip_o;
    int64_t clip;
    if (!PyArg_ParseTuple(args, "OOO", &rows, &output, &clip_o)) return NULL;
    if (k_int_arg(clip_o, "clip", 1, 1 << 16, &clip) < 0) return NULL;
    Py_ssize_t h = PySequence_Size(rows);
    if (h < 0) return NULL;
    Py_ssize_t no = PySequence_Size(output);
    if (no < 0) return NULL;
    if (h < 1 || h > MAXHIDDEN || no != h + 1) {
        PyErr_SetString(PyExc_ValueError, "the network does not fit the kernel");
        return NULL;
    }
    KNet *N = PyMem_Malloc(sizeof(KNet));
    if (N == NULL) return PyErr_NoMemory();
    N->hidden = (int)h;
    N->clip = (int)clip;
    int bad = 0;
    for (Py_ssize_t j = 0; j < h && !bad; j++) {
        PyObject *row = PySequence_GetItem(rows, j);
        if (row == NULL) { bad = 1; break; }
        Py_ssize_t width = PySequence_Size(row);
        if (width < 0) bad = 1;
        else if (width != NFEAT + 1) {
            PyErr_SetString(PyExc_ValueError, "a hidden unit of the network has the wrong number of weights");
            bad = 1;
        }
        for (Py_ssize_t i = 0; i <= NFEAT && !bad; i++) N->w1[j][i] = int_item(row, i, &bad);
        Py_DECREF(row);
    }
    for (Py_ssize_t j = 0; j <= h && !bad; j++) N->w2[j] = int_item(output, j, &bad);
    if (bad || check_sums(N) < 0) {
        PyMem_Free(N);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(N, NET_NAME, net_free);
    if (capsule == NULL) PyMem_Free(N);
    return capsule;
}

static int net_arg(PyObject *o, const KNet **N) {
    *N = PyCapsule_GetPointer(o, NET_NAME);
    return *N == NULL ? -1 : 0;
}

static int player_of(PyObject *o, int *player) {
    long v;
    if (!PyLong_Check(o) || PyBool_Check(o) || (v = PyLong_AsLong(o)) < 0 || v > 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "player must be 0 or 1");
        return -1;
    }
    *player = (int)v;
    return 0;
}

/* What a finished game is to player: 1 won, 2 lost, 3 drawn. */
static int finished(const KPos *P, int player) {
    if (P->winner < 0) return 3;
    return P->winner == player ? 1 : 2;
}

/* (code, mine, theirs): code 0 with the network's raw output from player's side and from the
 * opponent's, or 1 won, 2 lost, 3 drawn with both 0. */
static PyObject *judged(const KRules *R, const KPos *P, int player, const KNet *N) {
    if (P->why != WHY_NONE) return Py_BuildValue("(iLL)", finished(P, player), (long long)0, (long long)0);
    int32_t x[NFEAT];
    k_encode(R, P, player, x);
    long long mine = (long long)net_raw(N, x);
    k_encode(R, P, 1 - player, x);
    return Py_BuildValue("(iLL)", 0, mine, (long long)net_raw(N, x));
}

/* value(state, player, net) -> (code, mine, theirs) | None */
PyObject *m_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int player;
    const KNet *N;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "value(state, player, net)");
        return NULL;
    }
    if (player_of(args[1], &player) < 0 || net_arg(args[2], &N) < 0) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *out = judged(R, &P, player, N);
    Py_DECREF(caps);
    return out;
}

/* value_playout(state, player, net) -> (code, mine, theirs) | None: the greedy play-on of playout(), then the net. */
PyObject *m_value_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int player;
    const KNet *N;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "value_playout(state, player, net)");
        return NULL;
    }
    if (player_of(args[1], &player) < 0 || net_arg(args[2], &N) < 0) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    k_play_on(R, &P, player);
    PyObject *out = judged(R, &P, player, N);
    Py_DECREF(caps);
    return out;
}

/* encode(state, player) -> tuple of ints | None */
PyObject *m_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int player;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "encode(state, player)");
        return NULL;
    }
    if (player_of(args[1], &player) < 0) return NULL;
    PyObject *caps;
    const KRules *R;
    KPos P;
    int ok = k_to_pos(args[0], &caps, &R, &P);
    if (ok <= 0) return ok < 0 ? NULL : Py_NewRef(Py_None);
    int32_t x[NFEAT];
    k_encode(R, &P, player, x);
    Py_DECREF(caps);
    PyObject *t = PyTuple_New(NFEAT);
    if (t == NULL) return NULL;
    for (int i = 0; i < NFEAT; i++) {
        PyObject *v = PyLong_FromLong(x[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}
