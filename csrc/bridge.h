/* Python objects <-> the compact position: what crapette.kernel hands the C code at init. */
#ifndef CRAPETTE_BRIDGE_H
#define CRAPETTE_BRIDGE_H

#include "kernel.h"

/* GameState's fields in the order of its __init__, then the engine's list. */
enum {
    F_RULES, F_PILES, F_PLAYER, F_COUNT, F_DRAWN, F_PASSES, F_EXHAUSTED, F_PLAYED, F_COUNTERS,
    F_HAND_KNOWN, F_RESERVE_KNOWN, F_FROM_DEAL, F_TURN_MOVES, F_ENGINE, NFIELDS
};

typedef struct {
    int ready, enabled;
    PyObject *cards;              /* crapette.ALL_CARDS */
    PyObject *moves;              /* the 903 moves in the order of crapette._formats.actions */
    PyObject *card_key[256];      /* pointer hash of the cards */
    uint8_t card_val[256];
    PyObject *move_key[2048];     /* pointer hash of the moves */
    int16_t move_val[2048];
    PyTypeObject *state_type;
    Py_ssize_t off[NFIELDS];
    Py_ssize_t engine_len;
    PyObject *outcome_cls, *reasons[5], *turn_end_cls;
    PyObject *compile;            /* rules -> a description of the rules for the kernel, or None */
    PyObject *py_generate, *py_apply;
    PyObject *random_type;        /* random.Random */
    PyObject *rules_cache;        /* dict: RuleSet -> capsule of KRules, or None */
    PyObject *pairs[4];           /* (False, False), (False, True), (True, False), (True, True) */
    PyObject *empty;
    /* The last position converted or made, and its state (a strong reference: states never change). */
    PyObject *last_state, *last_caps;
    KPos last_pos;
} KGlobals;

extern KGlobals G;

/* A state as a position: 1, 0 when the kernel does not run it (other rules, not a GameState, not
 * well formed: the Python engine then decides), -1 with an exception set. On 1, *caps is a new
 * reference that keeps *R alive. */
int k_to_pos(PyObject *state, PyObject **caps, const KRules **R, KPos *P);
/* The GameState of P; the piles that changed is not set in share it with parent's (may be NULL). */
PyObject *k_from_pos(PyObject *rules, const KPos *P, PyObject *parent, uint32_t changed);
/* Remember state as the last one seen, with its position. */
void k_remember(PyObject *state, PyObject *caps, const KPos *P);
int k_action_of(PyObject *move);
PyObject *k_outcome(const KPos *P);
PyObject *k_init(PyObject *config);
void k_forget(void);

/* value.c */
PyObject *m_net(PyObject *self, PyObject *args);
PyObject *m_value(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *m_value_playout(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *m_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
void k_encode(const KRules *R, const KPos *P, int player, int32_t *out);

#define FIELD(obj, i) (*(PyObject **)((char *)(obj) + G.off[i]))

#endif
