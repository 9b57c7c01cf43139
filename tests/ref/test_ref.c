/* test_ref: unit tests of the reference model (host/ref).
 * Programs are hand-encoded; every expected cycle number is derived by hand
 * from docs/timing.md (first instruction enters X in cycle 2; next_entry =
 * entry + occupancy + redirect). Usage: test_ref [TMPDIR] */
#include "hpmref.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
static const char *tmpdir = "/tmp";

#define CHECK(cond) do { if (cond) passed++; else { failed++; \
    fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ(a, b) do { unsigned long long va_ = (unsigned long long)(a), \
    vb_ = (unsigned long long)(b); if (va_ == vb_) passed++; else { failed++; \
    fprintf(stderr, "FAIL %s:%d: %s == %s: 0x%llx != 0x%llx\n", __FILE__, \
            __LINE__, #a, #b, va_, vb_); } } while (0)

/* ---- encoders ---- */
static uint32_t R(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{ return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op; }
static uint32_t I(int imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{ return ((uint32_t)imm & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op; }
static uint32_t S(int imm, unsigned rs2, unsigned rs1, unsigned f3)
{ uint32_t u = (uint32_t)imm; return (u >> 5 & 0x7Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31u) << 7 | 0x23u; }
static uint32_t B(int imm, unsigned rs2, unsigned rs1, unsigned f3)
{ uint32_t u = (uint32_t)imm;
  return (u >> 12 & 1u) << 31 | (u >> 5 & 0x3Fu) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
         (u >> 1 & 0xFu) << 8 | (u >> 11 & 1u) << 7 | 0x63u; }
static uint32_t J(int imm, unsigned rd)
{ uint32_t u = (uint32_t)imm;
  return (u >> 20 & 1u) << 31 | (u >> 1 & 0x3FFu) << 21 | (u >> 11 & 1u) << 20 |
         (u >> 12 & 0xFFu) << 12 | rd << 7 | 0x6Fu; }
static uint32_t LUI(unsigned rd, uint32_t hi) { return (hi & 0xFFFFF000u) | rd << 7 | 0x37u; }
#define ADDI(rd, rs, imm) I(imm, rs, 0, rd, 0x13)
#define ADD(rd, a, b)  R(0, b, a, 0, rd, 0x33)
#define SUB(rd, a, b)  R(0x20, b, a, 0, rd, 0x33)
#define SLTU(rd, a, b) R(0, b, a, 3, rd, 0x33)
#define MUL(rd, a, b)  R(1, b, a, 0, rd, 0x33)
#define DIV(rd, a, b)  R(1, b, a, 4, rd, 0x33)
#define REM(rd, a, b)  R(1, b, a, 6, rd, 0x33)
#define DIVU(rd, a, b) R(1, b, a, 5, rd, 0x33)
#define LW(rd, rs, imm) I(imm, rs, 2, rd, 0x03)
#define LB(rd, rs, imm) I(imm, rs, 0, rd, 0x03)
#define LH(rd, rs, imm) I(imm, rs, 1, rd, 0x03)
#define SW(rs2, rs1, imm) S(imm, rs2, rs1, 2)
#define SB(rs2, rs1, imm) S(imm, rs2, rs1, 0)
#define BEQ(a, b, off) B(off, b, a, 0)
#define BNE(a, b, off) B(off, b, a, 1)
#define JALR(rd, rs, imm) I(imm, rs, 0, rd, 0x67)
#define CSRRW(rd, csr, rs) I((int)(csr), rs, 1, rd, 0x73)
#define CSRRS(rd, csr, rs) I((int)(csr), rs, 2, rd, 0x73)
#define CSRRWI(rd, csr, u) I((int)(csr), u, 5, rd, 0x73)
#define CSRRSI(rd, csr, u) I((int)(csr), u, 6, rd, 0x73)
#define CSRR(rd, csr) CSRRS(rd, csr, 0)
#define ECALL  0x00000073u
#define EBREAK 0x00100073u
#define MRET   0x30200073u
#define SRET   0x10200073u
#define WFI    0x10500073u
#define FENCEI 0x0000100Fu
#define NOP    ADDI(0, 0, 0)

#define RAM HPM_RAM_BASE

static hpmref *load(const uint32_t *prog, size_t n, unsigned fault)
{
    hpmref_config cfg = { .boot_addr = RAM, .uart_div = 8, .fault = fault };
    hpmref *m = hpmref_new(&cfg);
    if (!m) { fprintf(stderr, "out of memory\n"); exit(1); }
    if (hpmref_write_mem(m, RAM, prog, n * 4)) { fprintf(stderr, "load\n"); exit(1); }
    return m;
}

/* Steps n instructions, records into rec[0..n). */
static void run(hpmref *m, hpm_retire *rec, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        hpmref_step(m, &rec[i]);
}

static void test_alu(void)
{
    const uint32_t p[] = { ADDI(1, 0, 5), ADDI(2, 0, 7), ADD(3, 1, 2), SUB(4, 1, 2),
                           LUI(5, 0x12345000), ADDI(0, 1, 1) };
    hpmref *m = load(p, 6, 0);
    hpm_retire r[6];
    run(m, r, 6);
    for (unsigned i = 0; i < 6; i++)
        CHECK_EQ(r[i].cycle, 2 + i);           /* CPI 1 from cycle 2 */
    CHECK_EQ(r[2].rd_val, 12);
    CHECK_EQ(r[3].rd_val, (uint32_t)-2);
    CHECK_EQ(r[4].rd_val, 0x12345000);
    CHECK_EQ(r[5].rd_we, 0);                   /* x0 not written */
    CHECK_EQ(hpmref_cycle(m), 8);
    hpmref_free(m);
}

static void test_loop(void)
{
    /* li x1,3; L: addi x1,x1,-1; bnez x1,L; addi x2,x0,1 */
    const uint32_t p[] = { ADDI(1, 0, 3), ADDI(1, 1, -1), BNE(1, 0, -4), ADDI(2, 0, 1) };
    hpmref *m = load(p, 4, 0);
    hpm_retire r[8];
    run(m, r, 8);
    /* li 2; (addi,bnez) 3,4 5,6 7,8; exit bnez not taken but predicted taken:
     * redirect, so the last addi enters at 10 */
    static const uint64_t want[8] = { 2, 3, 4, 5, 6, 7, 8, 10 };
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ(r[i].cycle, want[i]);
    CHECK_EQ(r[7].pc, RAM + 12);
    CHECK_EQ(hpmref_reg(m, 2), 1);
    hpmref_free(m);
}

static void test_load_store(void)
{
    /* lui x1,RAM; addi x2,x0,0x55; sw x2,0x100(x1); lw x3,0x100(x1); add x4,x3,x3;
     * sb x2, 0x103(x1); lb x5, 0x103(x1) */
    const uint32_t p[] = { LUI(1, RAM), ADDI(2, 0, 0x85), SW(2, 1, 0x100), LW(3, 1, 0x100),
                           ADD(4, 3, 3), SB(2, 1, 0x103), LB(5, 1, 0x103), LH(6, 1, 0x102) };
    hpmref *m = load(p, 8, 0);
    hpm_retire r[8];
    run(m, r, 8);
    CHECK_EQ(r[2].cycle, 5);                  /* store: X 4,5 */
    CHECK_EQ(r[2].mem_we, 1);
    CHECK_EQ(r[2].mem_addr, RAM + 0x100);
    CHECK_EQ(r[2].mem_be, 0xF);
    CHECK_EQ(r[3].cycle, 7);                  /* load: X 6,7 */
    CHECK_EQ(r[3].rd_val, 0x85);
    CHECK_EQ(r[4].cycle, 8);                  /* no load-use penalty */
    CHECK_EQ(r[4].rd_val, 0x10A);
    CHECK_EQ(r[5].mem_be, 0x8);
    CHECK_EQ(r[5].mem_wdata, 0x85000000u);
    CHECK_EQ(r[5].mem_addr, RAM + 0x103);
    CHECK_EQ(r[6].rd_val, 0xFFFFFF85u);       /* lb sign-extends */
    CHECK_EQ(r[7].rd_val, 0xFFFF8500u);
    CHECK_EQ(r[7].cycle, 14);
    hpmref_free(m);
}

static void test_muldiv(void)
{
    const uint32_t p[] = { ADDI(1, 0, -7), ADDI(2, 0, 2), MUL(3, 1, 2), DIV(4, 1, 2),
                           REM(5, 1, 2), DIVU(6, 1, 0), DIV(7, 1, 0), ADDI(8, 0, 1) };
    hpmref *m = load(p, 8, 0);
    hpm_retire r[8];
    run(m, r, 8);
    CHECK_EQ(r[2].cycle, 7);                  /* mul: X 4..7 */
    CHECK_EQ(r[2].rd_val, (uint32_t)-14);
    CHECK_EQ(r[3].cycle, 8 + 33);             /* div: X 8..41 */
    CHECK_EQ(r[3].rd_val, (uint32_t)-3);
    CHECK_EQ(r[4].rd_val, (uint32_t)-1);
    CHECK_EQ(r[5].rd_val, 0xFFFFFFFFu);       /* divu by 0 */
    CHECK_EQ(r[6].rd_val, 0xFFFFFFFFu);       /* div by 0 */
    CHECK_EQ(r[7].cycle, 8 + 4 * 34);
    hpmref_free(m);

    /* overflow */
    const uint32_t q[] = { LUI(1, 0x80000000u), ADDI(2, 0, -1), DIV(3, 1, 2), REM(4, 1, 2) };
    m = load(q, 4, 0);
    run(m, r, 4);
    CHECK_EQ(r[2].rd_val, 0x80000000u);
    CHECK_EQ(r[3].rd_val, 0);
    hpmref_free(m);
}

static void test_branches(void)
{
    /* beq x0,x0,+8 (forward taken: mispredicted); [skipped]; jal x1,+8; [skipped];
     * auipc x2,0; jalr x0,12(x2) ; [skipped] ; addi x3,x0,1 ;
     * beq x3,x0,-4 (backward not taken: mispredicted); addi */
    const uint32_t p[] = {
        BEQ(0, 0, 8), NOP, J(8, 1), NOP, 0x00000117 /* auipc x2,0 */, JALR(0, 2, 12),
        NOP, ADDI(3, 0, 1), BEQ(3, 0, -4), ADDI(4, 0, 4) };
    hpmref *m = load(p, 10, 0);
    hpm_retire r[7];
    run(m, r, 7);
    CHECK_EQ(r[0].cycle, 2);   /* beq: entry 2, redirect -> 4 */
    CHECK_EQ(r[1].pc, RAM + 8);
    CHECK_EQ(r[1].cycle, 4);   /* jal: 1 cycle */
    CHECK_EQ(r[1].rd_val, RAM + 12);
    CHECK_EQ(r[2].pc, RAM + 16);
    CHECK_EQ(r[2].cycle, 5);
    CHECK_EQ(r[3].cycle, 6);   /* jalr: redirect -> 8 */
    CHECK_EQ(r[4].pc, RAM + 28);
    CHECK_EQ(r[4].cycle, 8);
    CHECK_EQ(r[5].cycle, 9);   /* backward not taken: redirect -> 11 */
    CHECK_EQ(r[6].cycle, 11);
    CHECK_EQ(r[6].pc, RAM + 36);
    hpmref_free(m);

    /* misaligned jump target: jalr to x+2 */
    const uint32_t q[] = { LUI(1, RAM), JALR(5, 1, 0x102) };
    m = load(q, 2, 0);
    run(m, r, 2);
    CHECK_EQ(r[1].trap, 1);
    CHECK_EQ(r[1].cause, 0);
    CHECK_EQ(r[1].tval, RAM + 0x102);
    CHECK_EQ(r[1].rd_we, 0);
    CHECK_EQ(hpmref_reg(m, 5), 0);
    hpmref_free(m);
}

static void test_traps(void)
{
    /* csrw mtvec, x1 (x1 = RAM+0x40); ecall; handler: csrr mcause, mepc, mtval;
     * illegal at the end */
    uint32_t p[32];
    for (unsigned i = 0; i < 32; i++)
        p[i] = NOP;
    p[0] = LUI(1, RAM);
    p[1] = ADDI(1, 1, 0x40);
    p[2] = CSRRW(0, 0x305, 1);
    p[3] = ECALL;
    p[16] = CSRR(10, 0x342);
    p[17] = CSRR(11, 0x341);
    p[18] = CSRR(12, 0x343);
    p[19] = 0xFFFFFFFFu;                      /* illegal */
    hpmref *m = load(p, 32, 0);
    hpm_retire r[8];
    run(m, r, 8);
    CHECK_EQ(r[2].csr_we, 1);
    CHECK_EQ(r[2].csr_addr, 0x305);
    CHECK_EQ(r[2].csr_val, RAM + 0x40);
    CHECK_EQ(r[3].trap, 1);
    CHECK_EQ(r[3].cycle, 5);
    CHECK_EQ(r[3].cause, 11);
    CHECK_EQ(r[4].pc, RAM + 0x40);
    CHECK_EQ(r[4].cycle, 7);                  /* handler 2 cycles later */
    CHECK_EQ(r[4].rd_val, 11);
    CHECK_EQ(r[5].rd_val, RAM + 12);
    CHECK_EQ(r[6].rd_val, 0);
    CHECK_EQ(r[7].trap, 1);
    CHECK_EQ(r[7].cause, 2);
    CHECK_EQ(r[7].tval, 0xFFFFFFFFu);
    uint32_t v;
    CHECK_EQ(hpmref_csr(m, 0x300, &v), 0);
    CHECK_EQ((v >> 11) & 3, 3);               /* MPP = M */
    CHECK_EQ(hpmref_csr(m, 0x7C0, &v), -1);   /* nonexistent */
    hpmref_free(m);

    /* loads: misaligned, access fault; ebreak */
    const uint32_t q[] = { LUI(1, RAM), LW(2, 1, 2), LUI(3, 0x40000000u), LW(4, 3, 0), EBREAK,
                           SW(0, 3, 0) };
    m = load(q, 6, 0);
    run(m, r, 6);
    CHECK_EQ(r[1].cause, 4);
    CHECK_EQ(r[1].tval, RAM + 2);
    CHECK_EQ(r[1].cycle, 3);
    /* mtvec = 0: handler at pc 0 (fw, zeros = illegal) */
    CHECK_EQ(r[2].pc, 0);
    CHECK_EQ(r[2].trap, 1);
    CHECK_EQ(r[2].cause, 2);
    CHECK_EQ(r[2].tval, 0);
    hpmref_free(m);

    const uint32_t q2[] = { LUI(3, 0x40000000u), LW(4, 3, 0) };
    m = load(q2, 2, 0);
    run(m, r, 2);
    CHECK_EQ(r[1].cause, 5);
    CHECK_EQ(r[1].tval, 0x40000000u);
    hpmref_free(m);
}

static void test_counters(void)
{
    /* csrr mcycle @2 -> 2; csrw mcycle,x0 @3; csrr @4 -> 0; csrr @5 -> 1;
     * csrwi mcountinhibit,5 @6; csrr mcycle @7 -> 3; csrr minstret @8;
     * csrwi mcountinhibit,0 @9; csrr mcycle @10 -> 4; csrr minstret @11 */
    const uint32_t p[] = { CSRR(1, 0xB00), CSRRW(0, 0xB00, 0), CSRR(2, 0xB00), CSRR(3, 0xB00),
                           CSRRWI(0, 0x320, 5), CSRR(4, 0xB00), CSRR(5, 0xB02),
                           CSRRWI(0, 0x320, 0), CSRR(6, 0xB00), CSRR(7, 0xB02),
                           CSRR(8, 0xC00), CSRR(9, 0xC01), CSRRW(0, 0xB02, 0), CSRR(10, 0xB02) };
    hpmref *m = load(p, 14, 0);
    hpm_retire r[14];
    run(m, r, 14);
    CHECK_EQ(r[0].rd_val, 2);
    CHECK_EQ(r[1].csr_val, 0);
    CHECK_EQ(r[2].rd_val, 0);
    CHECK_EQ(r[3].rd_val, 1);
    CHECK_EQ(r[5].rd_val, 3);                 /* counted the edge ending 6 */
    CHECK_EQ(r[6].rd_val, 5);                 /* csrw mcountinhibit itself counted */
    CHECK_EQ(r[8].rd_val, 3);                 /* inhibited in cycle 9: no increment */
    CHECK_EQ(r[9].rd_val, 6);                 /* 5 + csrr mcycle; 5..7 not counted */
    CHECK_EQ(r[10].rd_val, 5);
    CHECK_EQ(r[11].rd_val, 13);               /* time = cycle */
    CHECK_EQ(r[13].rd_val, 0);                /* minstret write: no own increment */
    hpmref_free(m);
}

static void test_timer_wfi(void)
{
    /* mtimecmp = 100; mie.MTIE; wfi; then mstatus.MIE -> interrupt */
    uint32_t p[64];
    for (unsigned i = 0; i < 64; i++)
        p[i] = NOP;
    unsigned k = 0;
    p[k++] = LUI(1, 0x02004000u);             /* x1 = mtimecmp */
    p[k++] = ADDI(2, 0, 100);
    p[k++] = SW(0, 1, 4);                     /* mtimecmph = 0 */
    p[k++] = SW(2, 1, 0);                     /* mtimecmp = 100 */
    p[k++] = ADDI(3, 0, 0x80);
    p[k++] = CSRRW(0, 0x304, 3);              /* mie = MTIE */
    p[k++] = LUI(4, RAM);
    p[k++] = ADDI(4, 4, 0x80);
    p[k++] = CSRRW(0, 0x305, 4);              /* mtvec = RAM+0x80 */
    p[k++] = WFI;                             /* k = 9 */
    p[k++] = CSRRSI(0, 0x300, 8);             /* mstatus.MIE = 1 */
    p[k++] = NOP;
    p[32] = CSRR(10, 0x342);
    hpmref *m = load(p, 64, 0);
    hpm_retire r[14];
    run(m, r, 14);
    /* lui 2, addi 3, sw 4-5, sw 6-7, addi 8, csrw 9, lui 10, addi 11, csrw 12, wfi 13.. */
    CHECK_EQ(r[9].cycle, 100);                /* wakes when mtime(t) = 100 >= 100 */
    CHECK_EQ(r[9].trap, 0);
    CHECK_EQ(r[10].cycle, 101);               /* csrsi mstatus at 101 */
    CHECK_EQ(r[11].trap, 1);                  /* interrupt before the nop at 102 */
    CHECK_EQ(r[11].cycle, 102);
    CHECK_EQ(r[11].cause, 0x80000007u);
    CHECK_EQ(r[11].pc, RAM + 44);
    CHECK_EQ(r[12].pc, RAM + 0x80);
    CHECK_EQ(r[12].cycle, 104);
    CHECK_EQ(r[12].rd_val, 0x80000007u);
    hpmref_free(m);
}

static void test_uart(void)
{
    /* sw 'A' to data at X 3 (busy 4..83); lw status at 5 -> 1; ... */
    const uint32_t p[] = { LUI(1, HPM_UART_BASE), ADDI(2, 0, 'A'), SW(2, 1, 0), LW(3, 1, 4),
                           SW(2, 1, 0), LW(4, 1, 8) };
    hpmref *m = load(p, 6, 0);
    hpm_retire r[6];
    run(m, r, 6);
    CHECK_EQ(r[2].cycle, 5);
    CHECK_EQ(r[3].rd_val, 1);
    CHECK_EQ(r[5].rd_val, 8);
    uint8_t buf[8];
    CHECK_EQ(hpmref_uart_take(m, buf, sizeof buf), 1);  /* 2nd ignored while busy */
    CHECK_EQ(buf[0], 'A');
    hpmref_free(m);

    /* poll exactly: sw at X 4 -> busy through 4+80 = 84, free at 85 */
    uint32_t q[] = { LUI(1, HPM_UART_BASE), ADDI(2, 0, 'B'), SW(2, 1, 0),
                     LW(3, 1, 4), I(1, 3, 7, 3, 0x13) /* andi x3,x3,1 */,
                     BNE(3, 0, -8), SW(2, 1, 0) };
    m = load(q, 7, 0);
    hpm_retire rr;
    uint64_t last_busy = 0, first_free = 0;
    for (int i = 0; i < 200; i++) {
        hpmref_step(m, &rr);
        if (rr.pc == RAM + 12) {
            if (rr.rd_val & 1) last_busy = rr.cycle - 1;
            else { first_free = rr.cycle - 1; break; }
        }
    }
    /* sw enters X at 4; polls enter at 6, 10, ..., lw every 4 cycles */
    CHECK(last_busy <= 84);
    CHECK(first_free >= 85 && first_free <= 88);
    CHECK_EQ((first_free - 6) % 4, 0);
    hpmref_free(m);
}

static void test_priv(void)
{
    /* M: medeleg = 1<<8 (ecall U -> S); stvec; mepc = U code; mret to U (MPP=0);
     * U: ecall -> S handler: csrr scause; sret from S with SPP=U back to U... */
    uint32_t p[64];
    for (unsigned i = 0; i < 64; i++)
        p[i] = NOP;
    unsigned k = 0;
    p[k++] = ADDI(1, 0, 0x100);
    p[k++] = CSRRW(0, 0x302, 1);              /* medeleg */
    p[k++] = LUI(2, RAM);
    p[k++] = ADDI(3, 2, 0x80);
    p[k++] = CSRRW(0, 0x105, 3);              /* stvec = RAM+0x80 */
    p[k++] = ADDI(3, 2, 0x40);
    p[k++] = CSRRW(0, 0x341, 3);              /* mepc = RAM+0x40 */
    p[k++] = MRET;                            /* MPP = 0 -> U */
    p[16] = CSRR(5, 0x300);                   /* U: mstatus read -> illegal (to M) */
    p[17] = ECALL;                            /* -> S */
    p[32] = CSRR(6, 0x142);                   /* S: scause */
    p[33] = CSRR(7, 0x100);                   /* sstatus */
    p[34] = WFI;                              /* TW=0: legal in S; mip&mie=0 */
    hpmref *m = load(p, 64, 0);
    hpm_retire r[12];
    run(m, r, 12);
    CHECK_EQ(r[7].cycle, 9);
    CHECK_EQ(r[8].pc, RAM + 0x40);
    CHECK_EQ(r[8].cycle, 11);
    CHECK_EQ(r[8].priv, 0);
    CHECK_EQ(r[8].trap, 1);
    CHECK_EQ(r[8].cause, 2);
    CHECK_EQ(r[8].tval, CSRR(5, 0x300));
    /* the illegal trap went to M at mtvec = 0 (fw: zeros, illegal again) */
    CHECK_EQ(r[9].pc, 0);
    CHECK_EQ(r[9].priv, 3);
    hpmref_free(m);

    /* the same, but mtvec -> skip: set mepc += 4 and mret, so U continues */
    for (unsigned i = 0; i < 64; i++)
        p[i] = NOP;
    k = 0;
    p[k++] = ADDI(1, 0, 0x100);
    p[k++] = CSRRW(0, 0x302, 1);              /* medeleg: ecall U */
    p[k++] = LUI(2, RAM);
    p[k++] = ADDI(3, 2, 0x80);
    p[k++] = CSRRW(0, 0x105, 3);              /* stvec = RAM+0x80 */
    p[k++] = ADDI(3, 2, 0x40);
    p[k++] = CSRRW(0, 0x341, 3);              /* mepc = RAM+0x40 */
    p[k++] = MRET;
    p[16] = ECALL;                            /* U -> S */
    p[32] = CSRR(6, 0x142);                   /* S: scause = 8 */
    p[33] = CSRR(7, 0x100);                   /* sstatus: SPP = 0 */
    p[34] = CSRR(8, 0x180);                   /* satp reads 0 in S (TVM=0) */
    p[35] = CSRR(9, 0xC00);                   /* cycle from S: mcounteren=0 -> illegal */
    m = load(p, 64, 0);
    run(m, r, 12);
    CHECK_EQ(r[8].cause, 8);
    CHECK_EQ(r[8].priv, 0);
    CHECK_EQ(r[9].priv, 1);
    CHECK_EQ(r[9].rd_val, 8);
    CHECK_EQ(r[10].rd_val, 0);
    CHECK_EQ(r[11].trap, 0);
    hpmref_step(m, &r[0]);
    CHECK_EQ(r[0].trap, 1);
    CHECK_EQ(r[0].cause, 2);                  /* not delegated: to M */
    CHECK_EQ(r[0].priv, 1);
    uint32_t v;
    hpmref_csr(m, 0x300, &v);
    CHECK_EQ((v >> 11) & 3, 1);               /* MPP = S */
    hpmref_free(m);
}

static void test_csr_warl(void)
{
    const uint32_t p[] = {
        ADDI(1, 0, -1),
        CSRRW(2, 0x305, 1),                   /* mtvec <- ~0: reads ~2 */
        CSRRW(0, 0x341, 1),                   /* mepc <- ~0: reads ~3 */
        CSRRW(0, 0x302, 1),                   /* medeleg: 0xB3FF */
        CSRRW(0, 0x303, 1),                   /* mideleg: 0x2222 */
        CSRRW(0, 0x304, 1),                   /* mie: 0x2AAA */
        CSRRW(0, 0x344, 1),                   /* mip: 0x2222 (MTIP 0) */
        CSRRW(0, 0x300, 1),                   /* mstatus: MPP 3 */
        CSRRW(0, 0x3A0, 1),                   /* pmpcfg0: ignored */
        CSRRW(0, 0x301, 1),                   /* misa: ignored */
        CSRRW(0, 0x144, 0),                   /* sip <- 0: clears SSIP, LCOFIP */
        CSRR(3, 0x144),
        CSRRW(0, 0xF11, 0),                   /* mvendorid: read-only -> illegal */
    };
    hpmref *m = load(p, 13, 0);
    hpm_retire r[13];
    run(m, r, 13);
    CHECK_EQ(r[1].csr_val, 0xFFFFFFFDu);
    CHECK_EQ(r[2].csr_val, 0xFFFFFFFCu);
    CHECK_EQ(r[3].csr_val, 0xB3FF);
    CHECK_EQ(r[4].csr_val, 0x2222);
    CHECK_EQ(r[5].csr_val, 0x2AAA);
    CHECK_EQ(r[6].csr_val, 0x2222);
    CHECK_EQ(r[7].csr_val, 0x007219AAu);  /* SUM/MXR read 0 */
    CHECK_EQ(r[8].csr_we, 1);
    CHECK_EQ(r[8].csr_val, 0);
    CHECK_EQ(r[9].csr_val, 0x40141100u);
    CHECK_EQ(r[11].rd_val, 0x220);           /* STIP, SEIP remain */
    CHECK_EQ(r[12].trap, 1);
    CHECK_EQ(r[12].cause, 2);
    hpmref_free(m);
}

static void test_fault_injection(void)
{
    const uint32_t p[] = { LUI(1, 0x80000000u), SLTU(2, 0, 1), DIV(3, 1, 1), NOP };
    hpm_retire a[4], b[4];
    hpmref *m = load(p, 4, HPMREF_FAULT_NONE);
    run(m, a, 4);
    CHECK_EQ(a[1].rd_val, 1);
    CHECK_EQ(a[3].cycle, 4 + 34);
    hpmref_free(m);
    m = load(p, 4, HPMREF_FAULT_SLTU);
    run(m, b, 4);
    CHECK_EQ(b[1].rd_val, 0);
    hpmref_free(m);
    m = load(p, 4, HPMREF_FAULT_DIV_LATENCY);
    run(m, b, 4);
    CHECK_EQ(b[3].cycle, 4 + 35);
    hpmref_free(m);

    /* lockstep: records of a good model against a faulty one */
    char path[512];
    snprintf(path, sizeof path, "%s/lockstep.txt", tmpdir);
    for (unsigned f = HPMREF_FAULT_DIV_LATENCY; f <= HPMREF_FAULT_SLTU; f++) {
        hpmref *good = load(p, 4, 0), *bad = load(p, 4, f);
        hpm_lockstep *ls = hpm_lockstep_new(bad, 8);
        FILE *out = fopen(path, "w+");
        CHECK(out != NULL);
        if (!out) return;
        int div = 0;
        unsigned i;
        for (i = 0; i < 4 && !div; i++) {
            hpm_retire g;
            hpmref_step(good, &g);
            div = hpm_lockstep_check(ls, &g, out);
        }
        CHECK_EQ(div, 1);
        CHECK_EQ(hpm_lockstep_count(ls), f == HPMREF_FAULT_SLTU ? 1 : 2);
        rewind(out);
        char text[2048];
        size_t n = fread(text, 1, sizeof text - 1, out);
        text[n] = '\0';
        CHECK(strstr(text, f == HPMREF_FAULT_SLTU ? "rd_val" : "cycle: rtl=") != NULL);
        CHECK(strstr(text, "lockstep: rtl:") != NULL);
        fclose(out);
        hpm_lockstep_free(ls);
        hpmref_free(good);
        hpmref_free(bad);
    }
    /* compare: identical records agree; a difference names the field */
    hpm_retire x, y;
    memset(&x, 0, sizeof x);
    y = x;
    char msg[128];
    CHECK_EQ(hpm_retire_compare(&x, &y, msg, sizeof msg), 0);
    y.mem_we = x.mem_we = 1;
    y.mem_be = x.mem_be = 1;
    y.mem_wdata = 0xAB; x.mem_wdata = 0xABABABAB;   /* disabled lanes ignored */
    CHECK_EQ(hpm_retire_compare(&x, &y, msg, sizeof msg), 0);
    y.pc = 4;
    CHECK_EQ(hpm_retire_compare(&x, &y, msg, sizeof msg), 1);
    CHECK(strncmp(msg, "pc:", 3) == 0);
}

static void test_self_modify(void)
{
    /* sw over the next instruction: the old word executes (already fetched);
     * after fence.i the new one */
    const uint32_t p[] = { LUI(1, RAM), LW(2, 1, 24), SW(2, 1, 12), ADDI(3, 0, 1),
                           SW(2, 1, 20), FENCEI, ADDI(3, 0, 7) };
    hpmref *m = load(p, 7, 0);
    hpm_retire r[7];
    run(m, r, 7);
    CHECK_EQ(r[3].insn, ADDI(3, 0, 1));       /* stale */
    CHECK_EQ(r[5].insn, FENCEI);              /* sw to 20 was 1 ahead of fence.i */
    CHECK_EQ(r[6].insn, ADDI(3, 0, 7));
    CHECK_EQ(r[6].cycle, r[5].cycle + 2);     /* fence.i redirects */
    hpmref_free(m);
}

/* ---- ELF loader ---- */
typedef struct { unsigned calls; hpmref *m; } wctx;
static int count_writer(void *ctx, uint32_t addr, const void *src, size_t len)
{
    wctx *c = ctx;
    c->calls++;
    return c->m ? hpmref_write_mem(c->m, addr, src, len) : 0;
}

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xFFFF); put16(p + 2, v >> 16); }

/* A minimal valid ELF: one PT_LOAD at paddr with 8 bytes + 8 bss, a symtab
 * with tohost. Returns its size. */
static size_t make_elf(uint8_t *f, uint32_t paddr)
{
    memset(f, 0, 512);
    memcpy(f, "\177ELF", 4);
    f[4] = 1; f[5] = 1; f[6] = 1;
    put16(f + 16, 2); put16(f + 18, 243); put32(f + 20, 1);
    put32(f + 24, paddr);            /* entry */
    put32(f + 28, 52);               /* phoff */
    put32(f + 32, 200);              /* shoff */
    put16(f + 40, 52); put16(f + 42, 32); put16(f + 44, 1);
    put16(f + 46, 40); put16(f + 48, 3);
    uint8_t *ph = f + 52;
    put32(ph, 1); put32(ph + 4, 100); put32(ph + 8, paddr); put32(ph + 12, paddr);
    put32(ph + 16, 8); put32(ph + 20, 16);
    put32(f + 100, 0x00000013); put32(f + 104, 0x00000013);
    /* strtab at 120: "\0tohost\0" ; symtab at 140: null sym + tohost */
    memcpy(f + 120, "\0tohost\0", 8);
    put32(f + 140 + 16, 1); put32(f + 140 + 20, paddr + 4);
    uint8_t *sh = f + 200;           /* [0] null, [1] symtab, [2] strtab */
    put32(sh + 40 + 4, 2); put32(sh + 40 + 16, 140); put32(sh + 40 + 20, 32);
    put32(sh + 40 + 24, 2);
    put32(sh + 80 + 4, 3); put32(sh + 80 + 16, 120); put32(sh + 80 + 20, 8);
    return 320;
}

static int try_elf(const uint8_t *f, size_t n, unsigned *calls, hpm_elf_info *inf, char *err)
{
    char path[512];
    snprintf(path, sizeof path, "%s/t.elf", tmpdir);
    FILE *o = fopen(path, "wb");
    if (!o) { perror(path); exit(1); }
    fwrite(f, 1, n, o);
    fclose(o);
    wctx c = { 0, NULL };
    int rc = hpm_elf_load(path, count_writer, &c, inf, err, 256);
    *calls = c.calls;
    return rc;
}

static void test_elf(void)
{
    uint8_t f[512], g[512];
    hpm_elf_info inf;
    char err[256];
    unsigned calls;
    size_t n = make_elf(f, RAM);
    CHECK_EQ(try_elf(f, n, &calls, &inf, err), 0);
    CHECK_EQ(calls, 2);                       /* data + zero fill */
    CHECK_EQ(inf.entry, RAM);
    CHECK_EQ(inf.has_tohost, 1);
    CHECK_EQ(inf.tohost, RAM + 4);
    CHECK_EQ(inf.has_sig, 0);

    /* into a model */
    {
        char path[512];
        snprintf(path, sizeof path, "%s/t.elf", tmpdir);
        hpmref_config cfg = { 0, 8, 0 };
        hpmref *m = hpmref_new(&cfg);
        wctx c = { 0, m };
        CHECK_EQ(hpm_elf_load(path, count_writer, &c, &inf, err, sizeof err), 0);
        uint32_t w = 0;
        hpmref_read_mem(m, RAM + 4, &w, 4);
        CHECK_EQ(w, 0x13);
        hpmref_free(m);
    }

    struct { const char *what; size_t len; int off; int sz; uint32_t val; } bad[] = {
        { "truncated header", 40, 0, 0, 0 },
        { "truncated segment", 104, 0, 0, 0 },
        { "bad magic", 320, 1, 1, 'X' },
        { "ELFCLASS64", 320, 4, 1, 2 },
        { "big-endian", 320, 5, 1, 2 },
        { "wrong machine (x86)", 320, 18, 2, 3 },
        { "not executable", 320, 16, 2, 1 },
        { "phentsize", 320, 42, 2, 56 },
        { "phoff out of file", 320, 28, 4, 0xFFFFFFF0u },
        { "filesz > memsz", 320, 52 + 16, 4, 17 },
        { "segment offset out of file", 320, 52 + 4, 4, 0x7FFFFFFFu },
        { "segment outside ram", 320, 52 + 12, 4, RAM + HPM_RAM_SIZE - 8 },
        { "segment in clint", 320, 52 + 12, 4, HPM_CLINT_BASE },
        { "segment wraps", 320, 52 + 20, 4, 0xFFFFFFFFu },
        { "symtab out of file", 320, 240 + 16, 4, 0x10000 },
        { "bad strtab link", 320, 240 + 24, 4, 7 },
        { "shoff out of file", 320, 32, 4, 0x1000 },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(g, f, sizeof g);
        if (bad[i].sz == 1) g[bad[i].off] = (uint8_t)bad[i].val;
        else if (bad[i].sz == 2) put16(g + bad[i].off, bad[i].val);
        else if (bad[i].sz == 4) put32(g + bad[i].off, bad[i].val);
        err[0] = '\0';
        int rc = try_elf(g, bad[i].len, &calls, &inf, err);
        if (rc != -1 || calls != 0 || !err[0] || strchr(err, '\n'))
            fprintf(stderr, "FAIL elf case '%s': rc=%d calls=%u err='%s'\n",
                    bad[i].what, rc, calls, err);
        CHECK(rc == -1 && calls == 0 && err[0] && !strchr(err, '\n'));
    }
    /* a segment in fw is fine */
    memcpy(g, f, sizeof g);
    put32(g + 52 + 12, 0x100);
    put32(g + 24, 0x100);
    CHECK_EQ(try_elf(g, 320, &calls, &inf, err), 0);
    /* missing file */
    wctx c = { 0, NULL };
    CHECK_EQ(hpm_elf_load("/nonexistent/x.elf", count_writer, &c, &inf, err, sizeof err), -1);
    CHECK_EQ(c.calls, 0);
}

/* Deterministic mutation fuzzing of the loader (the libFuzzer target is
 * `make fuzz-elf`): never crash; rejected images write nothing; accepted ones
 * write only inside fw/ram. */
static int fw_ram_writer(void *ctx, uint32_t addr, const void *src, size_t len)
{
    wctx *c = ctx;
    (void)src;
    c->calls++;
    hpmref *m = c->m;
    uint8_t tmp[1];
    if (len && (hpmref_read_mem(m, addr, tmp, 1) || hpmref_read_mem(m, addr + (uint32_t)len - 1, tmp, 1)))
        c->calls += 1000000;          /* outside fw/ram: flagged */
    return 0;
}

static void test_elf_fuzz(void)
{
    uint8_t f[512], g[512];
    size_t n = make_elf(f, RAM);
    uint32_t seed = 12345;
    unsigned bad_writes = 0, accepted = 0, rejected_wrote = 0;
    hpmref *m = hpmref_new(NULL);
    for (unsigned it = 0; it < 20000; it++) {
        memcpy(g, f, sizeof g);
        unsigned k = 1 + it % 8;
        for (unsigned j = 0; j < k; j++) {
            seed = seed * 1103515245u + 12345u;
            unsigned pos = (seed >> 8) % 320;
            seed = seed * 1103515245u + 12345u;
            g[pos] = (uint8_t)(seed >> 16);
        }
        seed = seed * 1103515245u + 12345u;
        size_t len = (it & 16) ? (seed >> 8) % (n + 1) : n;
        wctx c = { 0, m };
        hpm_elf_info inf;
        char err[256];
        int rc = hpm_elf_load_buf(g, len, "fuzz", fw_ram_writer, &c, &inf, err, sizeof err);
        if (rc == 0) {
            accepted++;
            if (c.calls >= 1000000) bad_writes++;
        } else if (c.calls) {
            rejected_wrote++;
        }
    }
    hpmref_free(m);
    CHECK_EQ(bad_writes, 0);
    CHECK_EQ(rejected_wrote, 0);
    CHECK(accepted > 0);
}

static void test_mem_api(void)
{
    hpmref *m = hpmref_new(NULL);
    uint8_t b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    CHECK_EQ(hpmref_write_mem(m, HPM_RAM_BASE + HPM_RAM_SIZE - 4, b, 8), -1);
    CHECK_EQ(hpmref_write_mem(m, HPM_FW_SIZE - 8, b, 8), 0);
    CHECK_EQ(hpmref_write_mem(m, HPM_UART_BASE, b, 4), -1);
    CHECK_EQ(hpmref_read_mem(m, 0xFFFFFFFCu, b, 8), -1);
    CHECK_EQ(hpmref_pc(m), 0);
    CHECK_EQ(hpmref_cycle(m), 2);
    hpmref_free(m);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        tmpdir = argv[1];
    test_alu();
    test_loop();
    test_load_store();
    test_muldiv();
    test_branches();
    test_traps();
    test_counters();
    test_timer_wfi();
    test_uart();
    test_priv();
    test_csr_warl();
    test_fault_injection();
    test_self_modify();
    test_elf();
    test_elf_fuzz();
    test_mem_api();
    printf("ref: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
