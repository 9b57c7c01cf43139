/* ptrchase: dependent loads. A linked list of NODES nodes (8 bytes each) in
 * a random order (Fisher-Yates with xorshift32) is chased for size hops
 * (default 100000); each hop is one load for the next pointer and one for the
 * node's rank, the position it was given in the list. The self-check: the
 * hop count from the start equals the rank found at every node (their sum and
 * the final rank match the closed forms). */
#include "wl.h"

WL_TEST_SIZE(20000);

#define DEFAULT_HOPS 100000u
#define NODES 1024u

struct node {
	struct node *next;
	uint32_t rank;
};

static struct node nodes[NODES];
static uint16_t order[NODES];

/* links nodes[order[0]] -> nodes[order[1]] -> ... -> back to order[0] */
static void build_list(void)
{
	uint32_t seed = 0x2545f491u;
	for (uint32_t i = 0; i < NODES; i++)
		order[i] = (uint16_t)i;
	for (uint32_t i = NODES - 1; i > 0; i--) {
		/* j uniform-ish in [0, i] by the high half of a product */
		uint32_t j = (uint32_t)(((uint64_t)xs32(&seed) * (i + 1)) >> 32);
		uint16_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (uint32_t k = 0; k < NODES; k++) {
		struct node *n = &nodes[order[k]];
		n->next = &nodes[order[(k + 1) % NODES]];
		n->rank = k;
	}
}

uint32_t workload_main(uint32_t size)
{
	uint32_t hops = size ? size : DEFAULT_HOPS;
	build_list();

	const struct node *p = &nodes[order[0]];
	uint32_t sum = 0;
	for (uint32_t h = 0; h < hops; h++) {
		sum += p->rank;
		p = p->next;
	}
	SABOTAGE(sum++);

	/* ranks 0, 1, ..., NODES-1 repeat: full laps plus a partial one */
	uint32_t laps = hops / NODES, rest = hops % NODES;
	uint32_t want = laps * (NODES * (NODES - 1) / 2) + rest * (rest - 1) / 2;
	if (sum != want)
		return 1;
	if (p->rank != rest)
		return 2;
	return 0;
}
