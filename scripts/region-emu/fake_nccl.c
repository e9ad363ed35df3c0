/* scripts/region-emu: a stand-in for libnccl.so.2 (run.sh builds it under
 * that name and puts its folder first on LD_LIBRARY_PATH): communicators of one process, sends and
 * receives queued inside a group and matched in order per (from, to) pair
 * at ncclGroupEnd, then copied. Checks what NCCL would refuse: a receive
 * without its send, sizes that differ, calls outside a group. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct emu_comm { int rank, n; } emu_comm;
typedef struct op { int send, from, to; void *buf; size_t bytes; } op;
static __thread op *ops;
static __thread int nops, cap, depth;

int ncclCommInitAll(emu_comm **comms, int n, const int *devs)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++)
            if (devs[i] == devs[j])
                return 4; /* ncclInvalidUsage */
        comms[i] = malloc(sizeof **comms);
        comms[i]->rank = i;
        comms[i]->n = n;
    }
    return 0;
}
int ncclCommDestroy(emu_comm *c) { free(c); return 0; }
int ncclGroupStart(void) { depth++; return 0; }
static int queue(int send, emu_comm *c, int peer, void *buf, size_t bytes, int type)
{
    if (!depth || type != 1 /* ncclUint8 */ || peer < 0 || peer >= c->n || peer == c->rank)
        return 4;
    if (nops == cap) {
        cap = cap ? 2 * cap : 64;
        ops = realloc(ops, (size_t)cap * sizeof *ops);
    }
    ops[nops++] = (op){send, send ? c->rank : peer, send ? peer : c->rank, buf, bytes};
    return 0;
}
int ncclSend(const void *buf, size_t count, int type, int peer, emu_comm *c, void *stream)
{ (void)stream; return queue(1, c, peer, (void *)buf, count, type); }
int ncclRecv(void *buf, size_t count, int type, int peer, emu_comm *c, void *stream)
{ (void)stream; return queue(0, c, peer, buf, count, type); }
int ncclGroupEnd(void)
{
    if (!depth)
        return 4;
    if (--depth)
        return 0;
    int bad = 0;
    for (int i = 0; i < nops; i++) {
        if (ops[i].send)
            continue;
        int k = -1; /* the first unmatched send of the same pair */
        for (int j = 0; j < nops && k < 0; j++)
            if (ops[j].send == 1 && ops[j].from == ops[i].from && ops[j].to == ops[i].to)
                k = j;
        if (k < 0 || ops[k].bytes != ops[i].bytes) {
            fprintf(stderr, "fake nccl: a receive %d -> %d without its send\n", ops[i].from,
                    ops[i].to);
            bad = 1;
            continue;
        }
        memcpy(ops[i].buf, ops[k].buf, ops[i].bytes);
        ops[k].send = 2; /* used */
    }
    for (int j = 0; j < nops; j++)
        if (ops[j].send == 1) {
            fprintf(stderr, "fake nccl: a send %d -> %d without its receive\n", ops[j].from,
                    ops[j].to);
            bad = 1;
        }
    nops = 0;
    return bad ? 4 : 0;
}
const char *ncclGetErrorString(int r) { return r ? "fake nccl: invalid usage" : "no error"; }
int ncclGetVersion(int *v) { *v = 22000; return 0; }
