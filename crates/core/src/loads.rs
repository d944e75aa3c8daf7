//! Whether a runtime can load a checkpoint at all, by the runtime's own list of the models it
//! implements.
//!
//! Memory, speed and the command mean nothing for a runtime that refuses the model. Each runtime
//! picks its implementation by a key of the checkpoint's `config.json`, and keeps a list of them
//! (read from its source by `scripts/runtime-registries.py` into `data/runtime-classes.tsv` and
//! `data/mlx-model-types.txt`, with the release each comes from):
//! - llama.cpp runs GGUF files, and its converter makes one only for the classes it registers
//!   (the first `architectures` entry): for any other, no GGUF exists.
//! - Ollama converts the classes of its own switch and runs the GGUFs llama.cpp makes.
//! - vLLM refuses the classes it dropped, naming the last release that ran them; a class it never
//!   listed goes to its Transformers backend, which runs only what transformers itself builds —
//!   so that is a doubt said aloud, not a refusal, unless transformers has no model for it
//!   either — and the runtime has no config class of its own for the model type, which may map
//!   the class to one it has (SGLang's DeepSeek V4.1). SGLang the same.
//! - mlx-lm imports `mlx_lm.models.<model_type>` (after its remapping) or refuses.
//! - transformers builds the `model_type`s its auto classes map (`modeling_auto.py`), or the
//!   repository's own code with `trust_remote_code=True` (`auto_map`), or refuses; a class vLLM
//!   or SGLang does not list, whose type transformers does not build either, is refused too.
//!
//! A model not read from a config (a GGUF header, a bare count) has no class and passes: a GGUF
//! is what llama.cpp runs, and nothing is known to contradict the others.

use alloc::vec;
use alloc::vec::Vec;

use crate::inference::Runtime;
use crate::model::Checkpoint;
use crate::text::{Arg, Msg, MsgId};
use crate::vllm::VllmVersion;

/// Every class some runtime lists, sorted: `Class<TAB>` then the llama.cpp, Ollama and SGLang
/// flags (`y`/`-`) and vLLM's `y`, `-` or the last release that ran it (packed by build.rs).
static CLASSES: &str = include_str!(concat!(env!("OUT_DIR"), "/runtime-classes.txt"));
/// The `model_type`s mlx-lm loads, one a line.
static MLX_TYPES: &str = include_str!(concat!(env!("OUT_DIR"), "/mlx-model-types.txt"));
/// The `model_type`s vLLM and SGLang read with config classes of their own: `type<TAB>` then
/// vLLM's and SGLang's flags (`y`/`-`).
static CONFIG_TYPES: &str = include_str!(concat!(env!("OUT_DIR"), "/runtime-config-types.txt"));
/// The `model_type`s transformers' text-generating auto classes build, one a line.
static HF_TYPES: &str = include_str!(concat!(env!("OUT_DIR"), "/transformers-model-types.txt"));
/// The `model_type`s transformers builds with eager attention when no `attn_implementation` is
/// given (its class has no SDPA), one a line.
static HF_EAGER: &str = include_str!(concat!(env!("OUT_DIR"), "/transformers-eager-types.txt"));

/// The llama.cpp release whose converter the table lists.
pub const LLAMA_CPP_RELEASE: &str = "v0.5.0";
/// The Ollama revision whose converter the table lists.
pub const OLLAMA_RELEASE: &str = "v0.33.0-rc2";
/// The SGLang release whose models the table lists.
pub const SGLANG_RELEASE: &str = "0.5.23";
/// The vLLM release whose registry the table lists.
pub const VLLM_RELEASE: &str = "0.34.0";
/// The mlx-lm release whose model types the table lists.
pub const MLX_LM_RELEASE: &str = "0.32.2";
/// The transformers release whose model types the table lists.
pub const TRANSFORMERS_RELEASE: &str = "5.24.0";

/// What a runtime's list says about a checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub enum Loads {
    /// It loads it (or nothing says it does not).
    Yes,
    /// It refuses it: the reason, naming what the runtime's list lacks.
    No(Msg),
    /// It is not in the runtime's list but may still load through a fallback: the doubt.
    Unsure(Msg),
}

/// In `table` — lines sorted by their key, the text before a tab or the whole line (build.rs
/// sorts every list) — what follows `key`'s tab (empty for a one-column list), by binary search
/// over the text itself: the device table asks every runtime about the model for each of its
/// hundreds of rows, and a scan of a thousand lines each time was most of its time.
fn sorted_row(table: &'static str, key: &str) -> Option<&'static str> {
    let b = table.as_bytes();
    // `lo` and `hi` are line starts; the line holding the middle byte is compared each round.
    let (mut lo, mut hi) = (0, b.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = b[lo..mid].iter().rposition(|&c| c == b'\n').map_or(lo, |p| lo + p + 1);
        let end = b[start..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| start + p);
        let line = &table[start..end];
        let (k, rest) = line.split_once('\t').unwrap_or((line, ""));
        match k.cmp(key) {
            core::cmp::Ordering::Equal => return Some(rest),
            core::cmp::Ordering::Less => lo = (end + 1).min(b.len()),
            core::cmp::Ordering::Greater => hi = start,
        }
    }
    None
}

/// The row of `class`: its flags.
fn row(class: &str) -> Option<&'static str> {
    sorted_row(CLASSES, class)
}

/// Whether transformers builds the checkpoint's `model_type` with eager attention unless another
/// implementation is asked for (`_supports_sdpa = False`: gpt-oss, Gemma 2…), keeping each
/// layer's score matrix for the backward pass.
pub fn transformers_eager(c: &Checkpoint) -> bool {
    sorted_row(HF_EAGER, &c.model_type).is_some()
}

/// Whether transformers' auto classes build the checkpoint's `model_type` with a class of their
/// own (without the repository's code).
pub fn transformers_native(c: &Checkpoint) -> bool {
    sorted_row(HF_TYPES, &c.model_type).is_some()
}

/// Whether transformers runs the model's attention eagerly (no SDPA for its class: Inkling 2's
/// per-token sinks, gpt-oss's sinks, Gemma 2's soft-capping… — [`transformers_eager`]'s list, and
/// Inkling 2 by its class too), so a prompt's scores are materialised — by the checkpoint's model
/// type or class, which both the estimate and the command it prints read (the command asks for
/// `eager`: `sdpa` would be refused for these classes).
pub fn transformers_eager_only(c: &Checkpoint) -> bool {
    transformers_eager(c)
        || c.model_type.starts_with("inkling2")
        || c.class.starts_with("Inkling2")
        || c.text_class.starts_with("Inkling2")
}

/// Whether transformers loads the model's routed experts dequantized to 16 bits whatever the
/// checkpoint stores (transformers 5.24's `Inkling2LoopDequantizeExperts` for Inkling-2-Mini's
/// NVFP4 and MXFP8 experts, "until these formats can be loaded quantized").
pub fn transformers_dequantizes_experts(a: &crate::model::Architecture) -> bool {
    a.family == "inkling2_loop"
}

/// Whether vLLM (`sglang` false) or SGLang reads `model_type` with a config class of its own,
/// which may map the checkpoint's class to one it implements (SGLang's DeepSeek V4.1 config names
/// `DeepseekV4ForCausalLM`).
fn own_config(model_type: &str, sglang: bool) -> bool {
    !model_type.is_empty()
        && sorted_row(CONFIG_TYPES, model_type)
            .is_some_and(|f| f.as_bytes().get(if sglang { 2 } else { 0 }) == Some(&b'y'))
}

/// Whether `runtime` loads the checkpoint `c` (for inference; `vllm` is the release asked for).
pub fn loads(runtime: Runtime, c: &Checkpoint, vllm: VllmVersion) -> Loads {
    let class = c.class.as_str();
    let text = |s: &str| Arg::Text(s.into());
    // A config with no `architectures` (DeepSeek-VL2's): vLLM and SGLang pick their model by it
    // and stop at start without one.
    if class.is_empty() && !c.model_type.is_empty() && matches!(runtime, Runtime::Vllm | Runtime::Sglang) {
        return Loads::Unsure(Msg::new(MsgId::WarnNoArchitectures, vec![text(runtime.label())]));
    }
    // A class's flags (one no runtime lists has none set); `None` for no class.
    let flags_of = |c: &str| (!c.is_empty()).then(|| row(c).unwrap_or("----"));
    let set = |f: Option<&str>, i: usize| f.is_some_and(|f| f.as_bytes().get(i) == Some(&b'y'));
    let (flags, text_flags) = (flags_of(class), flags_of(&c.text_class));
    // llama.cpp's converter reads the text config's class for the text model (and the outer one
    // for a few wrappers): either listed is enough; a config that names neither is not refused
    // (a GGUF of it may still exist).
    let converts = |i: usize| set(flags, i) || set(text_flags, i);
    let named = flags.is_some() || text_flags.is_some();
    let shown = if class.is_empty() { c.text_class.as_str() } else { class };
    // transformers builds the model types of its auto classes, and any other with the
    // repository's own code; vLLM's and SGLang's Transformers backends build what it builds.
    let transformers_builds = c.model_type.is_empty() || c.remote_code || transformers_native(c);
    let no_backend = |name: &str, release: &str| {
        Loads::No(Msg::new(
            MsgId::AdviceBackendNoModel,
            vec![text(class), text(name), text(release), text(&c.model_type), text(TRANSFORMERS_RELEASE)],
        ))
    };
    match runtime {
        Runtime::LlamaCpp if named && !converts(0) => {
            Loads::No(Msg::new(MsgId::AdviceLlamaCppNoConverter, vec![text(shown), text(LLAMA_CPP_RELEASE)]))
        }
        Runtime::Ollama if named && !converts(0) && !converts(1) => Loads::No(Msg::new(
            MsgId::AdviceOllamaNoConverter,
            vec![text(shown), text(LLAMA_CPP_RELEASE), text(OLLAMA_RELEASE)],
        )),
        Runtime::Sglang if flags.is_some() && !set(flags, 2) && own_config(&c.model_type, true) => {
            Loads::Unsure(Msg::new(
                MsgId::WarnOwnConfig,
                vec![text(class), text("SGLang"), text(SGLANG_RELEASE), text(&c.model_type)],
            ))
        }
        Runtime::Sglang if flags.is_some() && !set(flags, 2) && !transformers_builds => {
            no_backend("SGLang", SGLANG_RELEASE)
        }
        Runtime::Sglang if flags.is_some() && !set(flags, 2) => Loads::Unsure(Msg::new(
            MsgId::WarnNotInRegistry,
            vec![text(class), text("SGLang"), text(SGLANG_RELEASE)],
        )),
        Runtime::Vllm => match flags.map(|f| &f[3..]) {
            None | Some("y") => Loads::Yes,
            Some("-") if own_config(&c.model_type, false) => Loads::Unsure(Msg::new(
                MsgId::WarnOwnConfig,
                vec![text(class), text("vLLM"), text(VLLM_RELEASE), text(&c.model_type)],
            )),
            Some("-") if !transformers_builds => no_backend("vLLM", VLLM_RELEASE),
            Some("-") => Loads::Unsure(Msg::new(
                MsgId::WarnNotInRegistry,
                vec![text(class), text("vLLM"), text(VLLM_RELEASE)],
            )),
            Some(last) => match VllmVersion::parse(last) {
                Ok(v) if vllm <= v => Loads::Yes,
                _ => Loads::No(Msg::new(
                    MsgId::AdviceVllmDropped,
                    vec![text(class), text(last), Arg::Text(alloc::format!("{}.{}", vllm.major, vllm.minor))],
                )),
            },
        },
        Runtime::Mlx if !c.model_type.is_empty() && sorted_row(MLX_TYPES, &c.model_type).is_none() => {
            Loads::No(Msg::new(MsgId::AdviceMlxNoModel, vec![text(&c.model_type), text(MLX_LM_RELEASE)]))
        }
        Runtime::Transformers if !transformers_builds => Loads::No(Msg::new(
            MsgId::AdviceTransformersNoModel,
            vec![text(&c.model_type), text(TRANSFORMERS_RELEASE)],
        )),
        _ => Loads::Yes,
    }
}

/// The runtimes that refuse the checkpoint `c` (the page marks them in its runtime choice).
pub fn refusing(c: &Checkpoint, vllm: VllmVersion) -> Vec<Runtime> {
    Runtime::ALL.iter().copied().filter(|r| matches!(loads(*r, c, vllm), Loads::No(_))).collect()
}

/// The runtime to use when the scenario names none: `usual`, unless it refuses the model and
/// one of `instead` loads it (a Mac runs with llama.cpp what mlx-lm has no model for; a class
/// vLLM dropped runs with transformers). `None` for the checkpoint keeps `usual`.
pub fn usable_default(
    usual: Runtime,
    instead: &[Runtime],
    c: Option<&Checkpoint>,
    vllm: VllmVersion,
) -> Runtime {
    let Some(c) = c else { return usual };
    if !matches!(loads(usual, c, vllm), Loads::No(_)) {
        return usual;
    }
    instead.iter().copied().find(|r| !matches!(loads(*r, c, vllm), Loads::No(_))).unwrap_or(usual)
}

/// The refusal among an estimate's notes, if its runtime refuses the model: no command is
/// written for it.
pub fn refusal(notes: &[Msg]) -> Option<&Msg> {
    notes.iter().find(|m| m.id.refuses_runtime())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(class: &str, model_type: &str) -> Checkpoint {
        Checkpoint { class: class.into(), model_type: model_type.into(), ..Checkpoint::default() }
    }

    fn no(l: Loads) -> MsgId {
        match l {
            Loads::No(m) => m.id,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn the_table_is_packed_sorted_and_whole() {
        let lines: Vec<&str> = CLASSES.lines().collect();
        assert!(lines.len() > 500, "{} classes", lines.len());
        assert!(lines.windows(2).all(|w| w[0] < w[1]));
        for l in &lines {
            let (c, f) = l.split_once('\t').unwrap();
            assert!(!c.is_empty() && f.len() >= 4, "{l}");
        }
        assert!(MLX_TYPES.lines().count() > 100);
    }

    /// The linear reading the binary search replaces.
    fn scanned(table: &'static str, key: &str) -> Option<&'static str> {
        table.lines().find_map(|l| match l.split_once('\t') {
            Some((k, rest)) => (k == key).then_some(rest),
            None => (l == key).then_some(""),
        })
    }

    #[test]
    fn every_list_is_found_by_binary_search_as_by_a_scan() {
        for table in [CLASSES, MLX_TYPES, CONFIG_TYPES, HF_TYPES, HF_EAGER] {
            let keys: Vec<&str> = table.lines().map(|l| l.split('\t').next().unwrap()).collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted by key, each once");
            for (k, l) in keys.iter().zip(table.lines()) {
                assert_eq!(sorted_row(table, k), scanned(table, k), "{l}");
                assert!(sorted_row(table, k).is_some());
                // Its neighbours in the order, and its prefixes, are not in the table unless listed.
                for probe in [&k[..k.len() - 1], &alloc::format!("{k}_"), &alloc::format!("{k}\t")] {
                    assert_eq!(sorted_row(table, probe), scanned(table, probe), "{probe:?}");
                }
            }
            for probe in ["", "\t", "A", "zzzz", "~", "0"] {
                assert_eq!(sorted_row(table, probe), scanned(table, probe), "{probe:?}");
            }
        }
        assert_eq!(sorted_row("", "a"), None);
        assert_eq!(sorted_row("a\n", "a"), Some(""));
        assert_eq!(sorted_row("a\tx\nb\ty", "b"), Some("y"), "a last line without its newline");
    }

    proptest::proptest! {
        #[test]
        fn any_sorted_list_is_searched_as_scanned(
            mut keys in proptest::collection::vec("[a-c_]{0,4}", 0..24),
            probe in "[a-c_]{0,4}",
        ) {
            keys.sort();
            keys.dedup();
            let table: &'static str = alloc::boxed::Box::leak(
                keys.iter().map(|k| alloc::format!("{k}\t{}\n", k.len())).collect::<alloc::string::String>().into_boxed_str(),
            );
            proptest::prop_assert_eq!(sorted_row(table, &probe), scanned(table, &probe));
        }
    }

    #[test]
    fn each_runtime_by_its_own_list() {
        let cur = VllmVersion::CURRENT;
        // Llama loads everywhere.
        for r in Runtime::ALL {
            assert_eq!(loads(r, &model("LlamaForCausalLM", "llama"), cur), Loads::Yes, "{r:?}");
        }
        // OPT: vLLM and SGLang implement it; llama.cpp's converter never did, nor mlx-lm.
        let opt = model("OPTForCausalLM", "opt");
        assert_eq!(no(loads(Runtime::LlamaCpp, &opt, cur)), MsgId::AdviceLlamaCppNoConverter);
        assert_eq!(no(loads(Runtime::Ollama, &opt, cur)), MsgId::AdviceOllamaNoConverter);
        assert_eq!(no(loads(Runtime::Mlx, &opt, cur)), MsgId::AdviceMlxNoModel);
        assert_eq!(loads(Runtime::Vllm, &opt, cur), Loads::Yes);
        assert_eq!(loads(Runtime::Sglang, &opt, cur), Loads::Yes);
        assert_eq!(loads(Runtime::Transformers, &opt, cur), Loads::Yes);
        // Llama 3.2 Vision: Ollama converts it itself; llama.cpp does not.
        let mllama = model("MllamaForConditionalGeneration", "mllama");
        assert_eq!(loads(Runtime::Ollama, &mllama, cur), Loads::Yes);
        assert_eq!(no(loads(Runtime::LlamaCpp, &mllama, cur)), MsgId::AdviceLlamaCppNoConverter);
        // MPT: vLLM dropped it after 0.28; a run pinned to 0.28 or older still loads it.
        let mpt = model("MPTForCausalLM", "mpt");
        assert_eq!(no(loads(Runtime::Vllm, &mpt, cur)), MsgId::AdviceVllmDropped);
        assert_eq!(loads(Runtime::Vllm, &mpt, VllmVersion::parse("0.28").unwrap()), Loads::Yes);
        assert_eq!(loads(Runtime::LlamaCpp, &mpt, cur), Loads::Yes);
        // A class no runtime lists, of a type transformers builds (a fine-tune's renamed class):
        // llama.cpp refuses, vLLM and SGLang only doubt (their Transformers backends).
        let odd = model("SomethingNewForCausalLM", "llama");
        assert!(
            matches!(loads(Runtime::Vllm, &odd, cur), Loads::Unsure(m) if m.id == MsgId::WarnNotInRegistry)
        );
        assert!(matches!(loads(Runtime::Sglang, &odd, cur), Loads::Unsure(_)));
        assert!(matches!(loads(Runtime::LlamaCpp, &odd, cur), Loads::No(_)));
        assert_eq!(loads(Runtime::Transformers, &odd, cur), Loads::Yes);
        // A type transformers does not build either, and no code of its own: the backends have
        // nothing to run, transformers refuses; with `auto_map`, the repository's code runs.
        let mut new = model("SomethingNewForCausalLM", "something_new");
        for r in [Runtime::Vllm, Runtime::Sglang] {
            let msg = match loads(r, &new, cur) {
                Loads::No(m) => m,
                other => panic!("{r:?}: {other:?}"),
            };
            assert_eq!(msg.id, MsgId::AdviceBackendNoModel);
            let text = msg.render(crate::text::Lang::En);
            assert!(
                text.contains("transformers 5.24.0 has no model for model_type `something_new`"),
                "{text}"
            );
        }
        assert_eq!(no(loads(Runtime::Transformers, &new, cur)), MsgId::AdviceTransformersNoModel);
        // SGLang lists no `DeepseekV41ForCausalLM`, but its own config for `deepseek_v41` maps the
        // class to `DeepseekV4ForCausalLM`: a doubt, not a refusal.
        let v41 = model("DeepseekV41ForCausalLM", "deepseek_v41");
        assert!(
            matches!(loads(Runtime::Sglang, &v41, cur), Loads::Unsure(m) if m.id == MsgId::WarnOwnConfig)
        );
        assert!(own_config("step5", false) && !own_config("step5", true) && !own_config("", false));
        new.remote_code = true;
        assert!(matches!(loads(Runtime::Vllm, &new, cur), Loads::Unsure(_)));
        assert!(matches!(loads(Runtime::Sglang, &new, cur), Loads::Unsure(_)));
        assert_eq!(loads(Runtime::Transformers, &new, cur), Loads::Yes);
        // A class vLLM implements is not refused for transformers' lack (DeepSeek V4.1's type is
        // not transformers 5.24's, vLLM builds it).
        assert_eq!(loads(Runtime::Vllm, &model("DeepseekV41ForCausalLM", "deepseek_v41"), cur), Loads::Yes);
        // No config read (a GGUF, a bare shape): nothing to refuse on.
        for r in Runtime::ALL {
            assert_eq!(loads(r, &model("", ""), cur), Loads::Yes);
        }
        // A config that names no class: vLLM and SGLang stop without one; the others pick by
        // other keys (llama.cpp's converter by the class too, but a GGUF may exist).
        let bare = model("", "deepseek_vl_v2");
        for r in [Runtime::Vllm, Runtime::Sglang] {
            assert!(matches!(loads(r, &bare, cur), Loads::Unsure(m) if m.id == MsgId::WarnNoArchitectures));
        }
        // transformers picks by the type, which it does not build (DeepSeek's own package does).
        assert_eq!(no(loads(Runtime::Transformers, &bare, cur)), MsgId::AdviceTransformersNoModel);
        assert!(transformers_native(&model("", "qwen2_5_vl")) && !transformers_native(&bare));
        // llama.cpp's converter reads a wrapper's text class: listed there is enough.
        let mut wrapped = model("SomeWrapperForConditionalGeneration", "some_wrapper");
        wrapped.text_class = "Qwen2ForCausalLM".into();
        assert_eq!(loads(Runtime::LlamaCpp, &wrapped, cur), Loads::Yes);
        wrapped.text_class = "OPTForCausalLM".into();
        assert!(matches!(loads(Runtime::LlamaCpp, &wrapped, cur), Loads::No(_)));
    }

    #[test]
    fn a_class_is_matched_whole() {
        // `Qwen2ForCausalLM` must not answer for `Qwen2ForCausalLMX` nor a prefix of it.
        assert!(row("Qwen2ForCausalLM").is_some());
        assert!(row("Qwen2For").is_none());
        assert!(row("Qwen2ForCausalLMX").is_none());
    }
}
