// Asks the real llama.cpp (the prebuilt CPU library that node-llama-cpp ships) what it allocates.
//
//   driver MODEL.gguf < settings
//
// Loads MODEL once, without weights in memory (`no_alloc`: llama.cpp's own dry run, the one its
// `--fit` uses: every buffer is sized, nothing is touched), then for each line of settings on stdin
// (`key=value` words: n_ctx n_batch n_ubatch n_seq type_k type_v fa swa_full unified) creates a
// context, prints one JSON line with the bytes llama.cpp reports per buffer type (model, context
// = KV/recurrent state, compute) plus the output buffer, and frees it. A context llama.cpp refuses
// prints {"error": …}. Nothing here computes a size: every number is llama.cpp's.
#include "llama.h"
#include "llama-ext.h"
#include "ggml-backend.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

static ggml_type type_of(const std::string & s) {
    for (int t = 0; t < GGML_TYPE_COUNT; ++t) {
        const char * n = ggml_type_name((ggml_type) t);
        if (n && s == n) return (ggml_type) t;
    }
    std::fprintf(stderr, "unknown ggml type %s\n", s.c_str());
    std::exit(2);
}

static std::string quoted(const std::string & s) {
    std::string o = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o + "\"";
}

static void quiet(ggml_log_level level, const char * text, void *) {
    if (level == GGML_LOG_LEVEL_ERROR || std::getenv("LLAMA_VERBOSE")) std::fputs(text, stderr);
}

int main(int argc, char ** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s MODEL.gguf < settings\n", argv[0]);
        return 2;
    }
    llama_log_set(quiet, nullptr);
    if (const char * dir = std::getenv("LLAMA_BACKEND_DIR")) {
        ggml_backend_load_all_from_path(dir);
    } else {
        ggml_backend_load_all();
    }
    llama_backend_init();

    llama_model_params mp = llama_model_default_params();
    // LLAMA_REAL_ALLOC: allocate for real instead (mapped weights, KV and compute buffers in RAM).
    mp.no_alloc = std::getenv("LLAMA_REAL_ALLOC") == nullptr;
    if (mp.no_alloc) {
        mp.load_mode = LLAMA_LOAD_MODE_NONE; // no mapping: the dry run sizes buffers, it maps nothing
    }
    mp.lazy_mode = LLAMA_LAZY_MODE_OFF;
    mp.n_gpu_layers = 0;
    mp.use_extra_bufts = std::getenv("LLAMA_NO_REPACK") == nullptr;
    llama_model * model = llama_model_load_from_file(argv[1], mp);
    if (!model) {
        std::printf("{\"error\": \"model did not load\"}\n");
        return 1;
    }
    char desc[256];
    llama_model_desc(model, desc, sizeof desc);

    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        llama_context_params cp = llama_context_default_params();
        cp.n_threads = cp.n_threads_batch = 1;
        std::istringstream words(line);
        std::string w;
        while (words >> w) {
            auto eq = w.find('=');
            if (eq == std::string::npos) continue;
            std::string k = w.substr(0, eq), v = w.substr(eq + 1);
            if (k == "n_ctx") cp.n_ctx = std::stoul(v);
            else if (k == "n_batch") cp.n_batch = std::stoul(v);
            else if (k == "n_ubatch") cp.n_ubatch = std::stoul(v);
            else if (k == "n_seq") cp.n_seq_max = std::stoul(v);
            else if (k == "type_k") cp.type_k = type_of(v);
            else if (k == "type_v") cp.type_v = type_of(v);
            else if (k == "fa") cp.flash_attn_type = v == "1" ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
            else if (k == "swa_full") cp.swa_full = v == "1";
            else if (k == "unified") cp.kv_unified = v == "1";
            else { std::fprintf(stderr, "unknown setting %s\n", k.c_str()); return 2; }
        }
        const bool trace = std::getenv("LLAMA_TRACE_ALLOC") != nullptr;
        if (trace) {
            // Every computed tensor's address, to read the allocator's layout (with LLAMA_REAL_ALLOC).
            cp.cb_eval = [](ggml_tensor * t, bool ask, void *) {
                if (!ask) std::fprintf(stderr, "T\t%s\t%s\t%p\t%zu\t%p\n", ggml_op_desc(t), t->name, t->data, ggml_nbytes(t), (void *) t->view_src);
                return true;
            };
        }
        llama_context * ctx = llama_init_from_model(model, cp);
        if (ctx && trace) {
            const int n = (int) llama_n_ubatch(ctx);
            llama_batch b = llama_batch_init(n, 0, 1);
            for (int i = 0; i < n; ++i) {
                b.token[i] = 5; b.pos[i] = i; b.n_seq_id[i] = 1; b.seq_id[i][0] = 0; b.logits[i] = 1;
            }
            b.n_tokens = n;
            std::fprintf(stderr, "decode: %d\n", llama_decode(ctx, b));
            llama_batch_free(b);
        }
        std::printf("{\"settings\": %s, \"model\": %s", quoted(line).c_str(), quoted(desc).c_str());
        if (!ctx) {
            std::printf(", \"error\": \"context refused\"}\n");
            std::fflush(stdout);
            continue;
        }
        std::printf(", \"n_ctx\": %u, \"n_batch\": %u, \"n_ubatch\": %u, \"n_seq\": %u",
                    llama_n_ctx(ctx), llama_n_batch(ctx), llama_n_ubatch(ctx), llama_n_seq_max(ctx));
        std::printf(", \"buffers\": {");
        bool first = true;
        for (const auto & [buft, mb] : llama_get_memory_breakdown(ctx)) {
            std::printf("%s%s: {\"model\": %zu, \"context\": %zu, \"compute\": %zu}", first ? "" : ", ",
                        quoted(ggml_backend_buft_name(buft)).c_str(), mb.model, mb.context, mb.compute);
            first = false;
        }
        std::printf("}}\n");
        std::fflush(stdout);
        if (std::getenv("LLAMA_DUMP_GRAPH")) {
            // The micro-batch graph llama.cpp reserves, node by node, for studying its allocation.
            const uint32_t n_tok = std::min(llama_n_ctx(ctx), llama_n_ubatch(ctx));
            ggml_cgraph * gf = llama_graph_reserve(ctx, n_tok, llama_n_seq_max(ctx), n_tok);
            std::map<const ggml_tensor *, int> index;
            for (int i = 0; gf && i < ggml_graph_n_nodes(gf); ++i) {
                ggml_tensor * t = ggml_graph_node(gf, i);
                index[t] = i;
                std::fprintf(stderr, "%d\t%s\t%s\t%s\t%lld %lld %lld %lld\t%zu\t%d\t%s\t", i, ggml_op_desc(t), t->name,
                             ggml_type_name(t->type), (long long) t->ne[0], (long long) t->ne[1], (long long) t->ne[2],
                             (long long) t->ne[3], ggml_nbytes(t), t->flags, t->view_src ? (index.count(t->view_src) ? ("n" + std::to_string(index[t->view_src])).c_str() : "leaf") : "-");
                for (int j = 0; j < GGML_MAX_SRC && t->src[j]; ++j) {
                    auto it = index.find(t->src[j]);
                    if (it != index.end()) std::fprintf(stderr, " n%d", it->second);
                    else std::fprintf(stderr, " l%p:%zu:%d", (void *) t->src[j], ggml_nbytes(t->src[j]), t->src[j]->buffer != nullptr);
                }
                std::fprintf(stderr, "\n");
            }
        }
        llama_free(ctx);
    }
    llama_model_free(model);
    llama_backend_free();
    return 0;
}
