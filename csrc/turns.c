/* turn_ends over the compact position: crapette._core.turns.turn_ends, breadth first in the engine's
 * order, positions merged by crapette._core.turns.position_key. */
#include "kernel.h"

/* The position key: per card, its pile's group (foundations one group, each tableau group one,
 * every reserve, hand and waste its own) and the card under it, then the flags. Two positions
 * have equal keys exactly when position_key() says they are equal: the piles of a group are
 * given back, as a set, by the cards' "under" links. */
#define KEY_BYTES (2 * NCARDS + 8)

static void make_key(const KRules *R, const KPos *P, uint8_t *key) {
    for (int c = 0; c < NCARDS; c++) {
        int w = P->where[c], g;
        if (w < T0) g = 0;
        else if (w < R0) g = 1 + (R->base[w - T0] - 1) / 105;
        else g = 16 + (w - R0);
        key[c] = (uint8_t)g;
        key[NCARDS + c] = P->below[c];
    }
    uint8_t *flags = key + 2 * NCARDS;
    flags[0] = P->player;
    flags[1] = P->drawn;
    flags[2] = P->passes;
    flags[3] = P->exhausted[0];
    flags[4] = P->exhausted[1];
    flags[5] = P->played[0];
    flags[6] = P->played[1];
    flags[7] = 0;
}

static uint64_t hash_key(const uint8_t *key) {
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int i = 0; i < KEY_BYTES; i += 8) {
        uint64_t w;
        memcpy(&w, key + i, 8);
        h = (h ^ w) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    return h ^ (h >> 32);
}

typedef struct {
    uint64_t *hashes;
    int32_t *index;   /* node index + 1; 0 for an empty slot */
    size_t mask;
} KSet;

void k_ends_free(KEnds *e) {
    PyMem_Free(e->arena);
    PyMem_Free(e->nodes);
    e->arena = NULL;
    e->nodes = NULL;
    e->count = e->room = 0;
    e->used = e->cap = 0;
}

static int add_node(KEnds *e, const KPos *P, int32_t parent, int move, uint32_t changed) {
    size_t need = (pos_bytes(P) + 7) & ~(size_t)7;
    if (e->used + need > e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 64 * sizeof(KPos);
        while (cap < e->used + need) cap *= 2;
        char *arena = PyMem_Realloc(e->arena, cap);
        if (arena == NULL) { PyErr_NoMemory(); return -1; }
        e->arena = arena;
        e->cap = cap;
    }
    if (e->count == e->room) {
        int32_t room = e->room ? e->room * 2 : 256;
        KNode *nodes = PyMem_Realloc(e->nodes, sizeof(KNode) * (size_t)room);
        if (nodes == NULL) { PyErr_NoMemory(); return -1; }
        e->nodes = nodes;
        e->room = room;
    }
    memcpy(e->arena + e->used, P, pos_bytes(P));
    KNode *node = &e->nodes[e->count++];
    node->off = e->used;
    node->parent = parent;
    node->move = (uint16_t)move;
    node->changed = changed;
    e->used += need;
    return 0;
}

static int set_grow(KSet *s, size_t slots, const uint64_t *node_hashes, int32_t count) {
    uint64_t *hashes = PyMem_Calloc(slots, sizeof(uint64_t));
    int32_t *index = PyMem_Calloc(slots, sizeof(int32_t));
    if (hashes == NULL || index == NULL) {
        PyMem_Free(hashes);
        PyMem_Free(index);
        PyErr_NoMemory();
        return -1;
    }
    PyMem_Free(s->hashes);
    PyMem_Free(s->index);
    s->hashes = hashes;
    s->index = index;
    s->mask = slots - 1;
    for (int32_t i = 0; i < count; i++) {
        size_t j = (size_t)node_hashes[i] & s->mask;
        while (s->index[j]) j = (j + 1) & s->mask;
        s->hashes[j] = node_hashes[i];
        s->index[j] = i + 1;
    }
    return 0;
}

/* True if move puts back what last moved between two tableau piles (crapette._core.turns._undoes). */
static int undoes(int move, int last) {
    if (KA.kind[last] == K_PLAY)
        return KA.kind[move] == K_PLAY && KA.src[move] == KA.tgt[last] && KA.tgt[move] == KA.src[last] && is_tab(KA.src[last]);
    if (KA.kind[last] == K_STACK)
        return KA.kind[move] == K_STACK && KA.src[move] == KA.tgt[last] && KA.tgt[move] == KA.src[last] && KA.cnt[move] == KA.cnt[last];
    return 0;
}

/* The positions the player to move reaches from root without revealing a card, in the order of
 * crapette._core.turns.turn_ends; at most limit of them (out->complete says whether that was all).
 * Returns 0, or -1 with an exception set. */
int k_turn_ends(const KRules *R, const KPos *root, long limit, KEnds *out) {
    memset(out, 0, sizeof *out);
    out->complete = 1;
    KSet set = {NULL, NULL, 0};
    uint64_t *node_hashes = NULL;
    size_t hroom = 0;
    uint8_t key[KEY_BYTES], other[KEY_BYTES];
    KPos here, child;
    uint16_t moves[NACTIONS];
    int rc = -1;

    if (add_node(out, root, -1, 0, 0) < 0) goto done;
    make_key(R, root, key);
    hroom = 256;
    node_hashes = PyMem_Malloc(sizeof(uint64_t) * hroom);
    if (node_hashes == NULL) { PyErr_NoMemory(); goto done; }
    node_hashes[0] = hash_key(key);
    if (set_grow(&set, 1024, node_hashes, 1) < 0) goto done;
    if (root->why != WHY_NONE) { rc = 0; goto done; }

    int p = root->player, res = R0 + p;
    for (int32_t at = 0; at < out->count; at++) {
        const KPos *stored = k_node_pos(out, at);
        if (stored->why != WHY_NONE) continue;
        pos_copy(&here, stored);
        int depth = 0;
        for (int32_t i = at; out->nodes[i].parent >= 0; i = out->nodes[i].parent) depth++;
        int last = depth > 0 && (depth > 1 || !root->passes) ? out->nodes[at].move : -1;
        int lone = depth > 0 || !root->passes;
        int n = k_moves(R, &here, moves);
        if (n < 0) goto done;
        for (int m = 0; m < n; m++) {
            int a = moves[m], kind = KA.kind[a], s = KA.src[a], t = KA.tgt[a];
            uint32_t changed;
            if (kind == K_PLAY) {
                if (s == res && here.size[s] > 1 && k_reveals(&here, a)) continue;
                if (is_tab(s) && is_tab(t)) {
                    if (last >= 0 && undoes(a, last)) continue;
                    if (lone && here.size[s] == 1 && here.size[t] == 0 && (R->twins[s - T0] >> (t - T0) & 1)) continue;
                }
            } else if (kind == K_STACK) {
                if (last >= 0 && undoes(a, last)) continue;
                if (lone && here.size[s] == KA.cnt[a] && here.size[t] == 0 && (R->twins[s - T0] >> (t - T0) & 1)) continue;
            } else if (kind != K_DRAW || k_reveals(&here, a)) {
                continue;   /* End turn, Pass and a Draw that reveals a card */
            }
            pos_copy(&child, &here);
            if (k_apply(R, &child, a, &changed) < 0) {
                PyErr_SetString(PyExc_RuntimeError, "the kernel listed a move it cannot apply");
                goto done;
            }
            if (kind == K_DRAW && child.player != here.player && child.why == WHY_NONE) continue;   /* the turn ended */
            make_key(R, &child, key);
            uint64_t h = hash_key(key);
            size_t j = (size_t)h & set.mask;
            int found = 0;
            while (set.index[j]) {
                if (set.hashes[j] == h) {
                    make_key(R, k_node_pos(out, set.index[j] - 1), other);
                    if (memcmp(key, other, KEY_BYTES) == 0) { found = 1; break; }
                }
                j = (j + 1) & set.mask;
            }
            if (found) continue;
            if (add_node(out, &child, at, a, changed) < 0) goto done;
            if ((size_t)out->count > hroom) {
                uint64_t *more = PyMem_Realloc(node_hashes, sizeof(uint64_t) * hroom * 2);
                if (more == NULL) { PyErr_NoMemory(); goto done; }
                node_hashes = more;
                hroom *= 2;
            }
            node_hashes[out->count - 1] = h;
            if ((size_t)out->count * 2 > set.mask + 1) {
                if (set_grow(&set, (set.mask + 1) * 2, node_hashes, out->count) < 0) goto done;
            } else {
                set.hashes[j] = h;
                set.index[j] = out->count;
            }
            if (out->count >= limit) { out->complete = 0; rc = 0; goto done; }
        }
    }
    rc = 0;
done:
    PyMem_Free(set.hashes);
    PyMem_Free(set.index);
    PyMem_Free(node_hashes);
    if (rc < 0) k_ends_free(out);
    return rc;
}
