/* interp: indirect jumps. A stack-machine bytecode interpreter (a switch
 * dispatched through a jump table: one jalr per bytecode, plus its loads)
 * runs a small program: for i < n, if (i & 3) s += i * i; a = 2 a ^ i; with
 * n = size (default 900), about 24 bytecodes per iteration. Self-check: the
 * program's result equals the same loop compiled from C. */
#include "wl.h"

WL_TEST_SIZE(300);

#define DEFAULT_N 900u
#define STACK_DEPTH 8u

enum op {
	OP_HALT,  /* stop, result = top of stack */
	OP_PUSH,  /* imm8 (signed): push it */
	OP_LOAD,  /* var: push vars[var] */
	OP_STORE, /* var: pop into vars[var] */
	OP_DUP,
	OP_ADD,
	OP_MUL,
	OP_AND,
	OP_XOR,
	OP_LT,  /* unsigned: push (second < top) */
	OP_JZ,  /* target: pop, jump if it was 0 */
	OP_JMP, /* target */
};

/* variables of the program */
enum { V_N,
	V_I,
	V_S,
	V_A,
	NVARS };

/* jump targets: byte offsets in program[] */
#define L_TOP 12
#define L_SKIP 36
#define L_END 54

static const uint8_t program[] = {
	/*  0 */ OP_PUSH,
	0,
	OP_STORE,
	V_I, /* i = 0 */
	/*  4 */ OP_PUSH,
	0,
	OP_STORE,
	V_S, /* s = 0 */
	/*  8 */ OP_PUSH,
	1,
	OP_STORE,
	V_A, /* a = 1 */
	/* 12 */ OP_LOAD,
	V_I,
	OP_LOAD,
	V_N,
	OP_LT, /* while (i < n) */
	/* 17 */ OP_JZ,
	L_END,
	/* 19 */ OP_LOAD,
	V_I,
	OP_PUSH,
	3,
	OP_AND, /* if (i & 3) */
	/* 24 */ OP_JZ,
	L_SKIP,
	/* 26 */ OP_LOAD,
	V_S,
	OP_LOAD,
	V_I,
	OP_LOAD,
	V_I,
	OP_MUL,
	OP_ADD,
	/* 34 */ OP_STORE,
	V_S, /* s += i * i */
	/* 36 */ OP_LOAD,
	V_A,
	OP_DUP,
	OP_ADD,
	OP_LOAD,
	V_I,
	OP_XOR,
	/* 43 */ OP_STORE,
	V_A, /* a = (a + a) ^ i */
	/* 45 */ OP_LOAD,
	V_I,
	OP_PUSH,
	1,
	OP_ADD,
	OP_STORE,
	V_I, /* i++ */
	/* 52 */ OP_JMP,
	L_TOP,
	/* 54 */ OP_LOAD,
	V_S,
	OP_LOAD,
	V_A,
	OP_XOR, /* return s ^ a */
	/* 59 */ OP_HALT,
};

/* runs code; 0 and *result at OP_HALT, 1 when the program goes wrong (a bad
 * opcode, a jump out of it, stack under- or overflow) */
static uint32_t interpret(const uint8_t *code, uint32_t len, uint32_t *vars, uint32_t *result)
{
	uint32_t stack[STACK_DEPTH], sp = 0;
	const uint8_t *pc = code;
	for (;;) {
		/* every operation pops at most 2 and pushes at most 1 */
		if ((uint32_t)(pc - code) >= len || sp >= STACK_DEPTH)
			return 1;
		uint8_t op = *pc++;
		switch (op) {
		case OP_HALT:
			if (sp < 1)
				return 1;
			*result = stack[sp - 1];
			return 0;
		case OP_PUSH:
			stack[sp++] = (uint32_t)(int32_t)(int8_t)*pc++;
			break;
		case OP_LOAD:
			stack[sp++] = vars[*pc++ % NVARS];
			break;
		case OP_STORE:
			if (sp < 1)
				return 1;
			vars[*pc++ % NVARS] = stack[--sp];
			break;
		case OP_DUP:
			if (sp < 1)
				return 1;
			stack[sp] = stack[sp - 1];
			sp++;
			break;
		case OP_JZ:
			if (sp < 1)
				return 1;
			if (stack[--sp] == 0)
				pc = code + *pc;
			else
				pc++;
			break;
		case OP_JMP:
			pc = code + *pc;
			break;
		default: {
			/* binary operations */
			if (sp < 2)
				return 1;
			uint32_t b = stack[--sp], a = stack[sp - 1], r;
			switch (op) {
			case OP_ADD: r = a + b; break;
			case OP_MUL: r = a * b; break;
			case OP_AND: r = a & b; break;
			case OP_XOR: r = a ^ b; break;
			case OP_LT: r = a < b; break;
			default: return 1;
			}
			stack[sp - 1] = r;
			break;
		}
		}
	}
}

uint32_t workload_main(uint32_t size)
{
	uint32_t n = size ? size : DEFAULT_N;
	uint32_t vars[NVARS] = { [V_N] = n }, result = 0;
	if (interpret(program, sizeof program, vars, &result) != 0)
		return 1;
	SABOTAGE(result ^= 4);

	uint32_t s = 0, a = 1;
	for (uint32_t i = 0; i < n; i++) {
		if (i & 3)
			s += i * i;
		a = (a + a) ^ i;
	}
	return result != (s ^ a) ? 2 : 0;
}
