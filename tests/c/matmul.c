/* matmul: 32x32 integer matrix products (mul-heavy); C = A*B must equal
 * (B^T A^T)^T, and A*I = A. */
#include "common.h"

#define N 32
static int32_t A[N][N], B[N][N], C[N][N], AT[N][N], BT[N][N], D[N][N];

static void mm(int32_t (*x)[N], int32_t (*y)[N], int32_t (*z)[N])
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int32_t acc = 0;
			for (int k = 0; k < N; k++)
				acc += x[i][k] * y[k][j];
			z[i][j] = acc;
		}
}

int main(void)
{
	uint32_t s = 42;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = (int32_t)(xs32(&s) % 2001) - 1000;
			B[i][j] = (int32_t)xs32(&s);
		}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			AT[j][i] = A[i][j];
			BT[j][i] = B[i][j];
		}
	mm(A, B, C);
	mm(BT, AT, D);
	uint32_t h = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			CHECK(1, C[i][j] == D[j][i]);
			h = h * 31 + (uint32_t)C[i][j];
		}
	/* A * I = A */
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			B[i][j] = i == j;
	mm(A, B, C);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			CHECK(2, C[i][j] == A[i][j]);
	/* 64-bit products through mulh/mulhu */
	int64_t p = (int64_t)A[3][4] * (int64_t)0x7fffffff;
	CHECK(3, p / 0x7fffffff == A[3][4]);
	printf("matmul %08x\n", (unsigned)h);
	return 0;
}
