/* The compiled kernel of crapette: a compact position and the engine's rules over it.
 *
 * The pure-Python engine (crapette/_core/engine.py, _turns.py, _greedy.py, evaluation.py) is the
 * reference: every function here does what its Python twin does, in the same
 * order, and tests/kernel/test_kernel.py holds them to it move for move.
 *
 * A position keeps each pile as a linked list of card indexes: below[c] is the
 * card under card c (NONE at the bottom), top[p] and size[p] the top card and
 * the count of pile p. Moving cards is then a few stores, and the "card under
 * it" that the shape keys of crapette._core.shapes are made of is read directly.
 */
#ifndef CRAPETTE_KERNEL_H
#define CRAPETTE_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define K_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define K_NOINLINE __declspec(noinline)
#else
#define K_NOINLINE
#endif

#define NCARDS 104
#define NPILES 22
#define F0 0
#define T0 8
#define R0 16
#define H0 18
#define W0 20
#define NONE 255
/* crapette._core.state.MAX_TURN_MOVES */
#define MAX_TURN 1000
/* crapette._formats.actions.NUM_ACTIONS: every move has a fixed number. */
#define NACTIONS 903
#define A_DRAW 900
#define A_END 901
#define A_PASS 902
/* crapette._core.outcome.MAX_NUMBER */
#define MAX_NUMBER INT64_MAX

/* How a game ended (crapette.EndReason); 0 while it goes on. */
enum { WHY_NONE = 0, WHY_EMPTIED, WHY_STALEMATE, WHY_BLOCKED, WHY_LIMIT };
/* What an action is. */
enum { K_PLAY = 0, K_STACK = 1, K_DRAW = 2, K_END = 3, K_PASS = 4 };

typedef struct {
    uint8_t below[NCARDS];
    uint8_t where[NCARDS];
    uint8_t top[NPILES];
    uint8_t size[NPILES];
    uint8_t player, drawn, passes, from_deal;
    uint8_t exhausted[2], played[2], hand_known[2], reserve_known[2];
    /* The outcome: why (WHY_NONE while the game goes on), the winner (-1: none), the scores. */
    uint8_t why, has_scores;
    int8_t winner;
    int64_t move_count;
    int64_t scores[2];
    /* Under revisits=false, the moves between tableau piles made in a row (actions); the
       struct is copied only up to the used part of this array (see pos_bytes). */
    uint16_t nturn;
    uint16_t turn[MAX_TURN];
} KPos;

static inline size_t pos_bytes(const KPos *p) { return offsetof(KPos, turn) + sizeof(uint16_t) * p->nturn; }
static inline void pos_copy(KPos *dst, const KPos *src) { memcpy(dst, src, pos_bytes(src)); }

/* The RuleSet options the kernel runs, by name: crapette.kernel leaves rules with any other option
 * (RuleSet.options()) to the Python engine. The flag options are also fields of KRules and of
 * crapette._core.compiled.CompiledRules by the same name, read by that name (csrc/bridge.c): a new flag
 * option that the kernel runs is one entry here and its use in engine.c. */
#define K_FLAG_OPTIONS(X) X(end_turn) X(fill_empty_first) X(stack_moves) X(stalemate) X(drawn_first) X(revisits)
#define K_OTHER_OPTIONS                                                                                   \
    "reserve_size", "first_player", "tableau_sources", "own_tableau_build", "opponent_tableau_build",   \
    "load_targets", "waste_play", "foundation_plays", "move_limit", "scoring", "load_build", "stack_limit", \
    "endings"
/* The flags CompiledRules makes of options with more than two values, read by the same names. */
#define K_DERIVED_FLAGS(X) X(waste_always) X(compulsory) X(stack_unlimited)

/* What the rules mean, compiled once per RuleSet (crapette._core.compiled.CompiledRules of both players). */
typedef struct {
    /* Per player, tableau pile, top card: the kinds (card % 52) its building rule takes. */
    uint64_t tab[2][8][NCARDS];
    /* The same, keeping only the kinds whose two suits of that colour and rank are both taken
       (the colour keys of crapette._core.compiled.build_table, which stack moves look up). */
    uint64_t tabcol[2][8][NCARDS];
    /* Per top card of an opponent's reserve or waste: the kinds that may be loaded onto it. */
    uint64_t load[NCARDS];
    uint8_t ntab_src[2], tab_src[2][8];
    uint8_t nload[2], load_pile[2][2];
    uint8_t alt_mask[2];
#define K_FLAG_FIELD(name) uint8_t name;
    K_FLAG_OPTIONS(K_FLAG_FIELD)
    K_DERIVED_FLAGS(K_FLAG_FIELD)
#undef K_FLAG_FIELD
    int64_t limit;
    /* The rules' scoring (has_scoring) and the weights evaluate() counts cards with. */
    int has_scoring;
    int64_t bonus, w_res, w_hand, w_waste;
    int64_t h_res, h_hand, h_waste;
    /* crapette._core.shapes.Shapes: per tableau pile its group's code base and its twins. */
    uint16_t base[8];
    uint8_t twins[8];
} KRules;

/* The numbers of the greedy heuristic and of the playouts, read by name from crapette._core.greedy_table
 * at init. */
#define K_SCORES(X)                                                                                          \
    X(FOUNDATION) X(FOUNDATION_FROM_RESERVE) X(FOUNDATION_FROM_WASTE) X(FOUNDATION_FROM_TABLEAU)            \
    X(RESERVE_TO_RESERVE) X(RESERVE_TO_WASTE) X(RESERVE_TO_TABLEAU) X(WASTE_TO_RESERVE) X(WASTE_TO_WASTE)   \
    X(WASTE_TO_TABLEAU) X(TABLEAU_TO_RESERVE) X(TABLEAU_TO_WASTE) X(OPENS_FOUNDATION) X(OPENS_RESERVE)      \
    X(OPENS_WASTE) X(USELESS) X(DRAW) X(END_TURN) X(KEEP_EMPTY) X(HORIZON)
typedef struct {
#define K_SCORE_FIELD(name) int name;
    K_SCORES(K_SCORE_FIELD)
#undef K_SCORE_FIELD
    double WIN, RESERVE_READY;
    /* Per action, its score without look-ahead onto an empty target [0] and a filled one [1] (k_scores_init). */
    int quick[NACTIONS][2];
} KScores;

extern KScores KS;

/* The actions, as the fixed numbering of crapette._formats.actions lays them out. */
typedef struct {
    uint8_t kind[NACTIONS], src[NACTIONS], tgt[NACTIONS], cnt[NACTIONS];
    int16_t play[NPILES][NPILES];   /* action of Play(source, target), -1 if none */
    int16_t stack[8][8][14];        /* action of MoveStack(source, target, count), -1 if none */
} KActions;

extern KActions KA;

static inline int c_rank(int c) { return c % 13 + 1; }
static inline int c_suit(int c) { return (c % 52) / 13; }
static inline int c_kind(int c) { return c % 52; }
static inline int c_red(int c) { int s = c_suit(c); return s == 1 || s == 2; }
/* True if `above` lies on `below` in a run down in alternating colours. */
static inline int run_ok(int below, int above) {
    return c_red(above) != c_red(below) && c_rank(above) == c_rank(below) - 1;
}
static inline int is_tab(int pile) { return pile >= T0 && pile < R0; }

/* engine.c */
int k_moves(const KRules *R, const KPos *P, uint16_t *out);
int k_apply(const KRules *R, KPos *P, int action, uint32_t *changed);
int k_shuttle(int action);
void k_game_end(const KRules *R, KPos *P);
int k_reveals(const KPos *P, int action);

/* play.c */
double k_evaluate(const KRules *R, const KPos *P, int player);
int k_fast_move(const KRules *R, const KPos *P);
int k_fast_of(const KPos *P, const uint16_t *moves, int n);
void k_scores_init(void);
int k_greedy_scores(const KRules *R, const KPos *P, const uint16_t *moves, int n, int lookahead, int *scores);
double k_playout(const KRules *R, KPos *P, int player);
double k_careful_playout(const KRules *R, KPos *P, int player);
void k_play_on(const KRules *R, KPos *P, int player);
uint64_t k_next(uint64_t *state);
int k_below(uint64_t *state, int n);
double k_unit(uint64_t *state);

/* turns.c */
typedef struct {
    size_t off;          /* the node's position in the arena */
    int32_t parent;      /* -1 for the root */
    uint16_t move;       /* the action from the parent */
    uint32_t changed;    /* the piles that move changed */
} KNode;

typedef struct {
    char *arena;
    size_t used, cap;
    KNode *nodes;
    int32_t count, room;
    int complete;
} KEnds;

int k_turn_ends(const KRules *R, const KPos *root, long limit, KEnds *out);
void k_ends_free(KEnds *e);
static inline const KPos *k_node_pos(const KEnds *e, int32_t i) { return (const KPos *)(e->arena + e->nodes[i].off); }

#endif
