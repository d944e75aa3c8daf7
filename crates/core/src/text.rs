//! Words the estimate uses to explain itself, in English and French.
//!
//! The core returns [`Msg`] values (a message id plus arguments) rather than finished strings, so
//! that the page can render them in the reader's language and the CLI in English, from the same
//! numbers. Numbers are formatted per language (`8,030,261,248` / `8 030 261 248`).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use crate::units::Bytes;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A language the explanations are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "lowercase"))]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// French (the seed guide's language).
    Fr,
}

impl Lang {
    /// The two-letter code (`en`, `fr`).
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// Parses a code or a browser language tag (`fr-CA` → French); `None` if not supported.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let t = tag.trim().as_bytes();
        if t.len() >= 2 {
            match (t[0].to_ascii_lowercase(), t[1].to_ascii_lowercase()) {
                (b'e', b'n') => return Some(Lang::En),
                (b'f', b'r') => return Some(Lang::Fr),
                _ => {}
            }
        }
        None
    }
}

/// An argument of a message.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Arg {
    /// An integer, shown with thousands separators.
    Int(u64),
    /// A float, shown with the given number of decimals.
    Num(f64, u8),
    /// A size, shown in GB and GiB.
    Size(Bytes),
    /// Verbatim text (ids, names, formats).
    Text(String),
}

/// What a message does to an answer, one place for every reader: the estimate's warnings, a
/// device's "cannot run" and a runtime's refusal are each a property of the message's id.
impl MsgId {
    /// A runtime cannot load the model at all: no converter, dropped from its registry, no
    /// model type. The estimate warns, every device says no and there is no command.
    pub const fn refuses_runtime(self) -> bool {
        matches!(
            self,
            MsgId::AdviceLlamaCppNoConverter
                | MsgId::AdviceOllamaNoConverter
                | MsgId::AdviceVllmDropped
                | MsgId::AdviceMlxNoModel
                | MsgId::AdviceTransformersNoModel
                | MsgId::AdviceBackendNoModel
        )
    }

    /// A device cannot run the scenario whatever its memory: the runtime, the number format or
    /// the kernels are missing there. Its verdict is no, with this reason (before a runtime's
    /// refusal of the model, which holds on every device).
    pub const fn refuses_device(self) -> bool {
        self.vllm_refuses_setup()
            || matches!(
                self,
                MsgId::AdviceRuntimeNotHere
                    | MsgId::AdviceBnbNoMetal
                    | MsgId::AdviceBnbNeedsGpu
                    | MsgId::AdviceNoLowBitKernels
                    | MsgId::AdviceNoBf16
                    | MsgId::AdviceVllmKernelsMissing
                    | MsgId::AdviceInstanceTooFewGpus
            )
    }

    /// vLLM stops on this setup (before loading the model, or once its weights are in), whatever
    /// the memory: a device refusal and a warning.
    pub const fn vllm_refuses_setup(self) -> bool {
        matches!(
            self,
            // Tensor parallelism vLLM refuses for this model over this many GPUs.
            MsgId::AdviceVllmOneGpu
                | MsgId::AdviceVllmTpHeads
                | MsgId::AdviceVllmTpKvHeads
                | MsgId::AdviceVllmTpKvHeadsSplit
                // A cache block vLLM cannot lay this model's caches out in, or run its kernels on.
                | MsgId::AdviceVllmStep5Block
                | MsgId::AdviceVllmSparseMlaBlock
                | MsgId::AdviceVllmKernelBlock
                // Decode context parallelism vLLM refuses for this model or this setup.
                | MsgId::AdviceVllmDcpTp
                | MsgId::AdviceVllmDcpKvHeads
                | MsgId::AdviceVllmDcpSize
                | MsgId::AdviceVllmDcpSliding
                // The extensible KV cache asked for where vLLM cannot use it.
                | MsgId::AdviceVllmExtensibleKvMemory
                | MsgId::AdviceVllmExtensibleOld
        )
    }

    /// The estimate's warnings: what it could not read or count, and runtime refusals, shown
    /// beside the answer rather than among the notes.
    pub const fn warns(self) -> bool {
        self.refuses_runtime()
            || self.vllm_refuses_setup()
            || matches!(
                self,
                MsgId::NoticeUnknownFamily
                    | MsgId::NoticeFamilyByArchitecture
                    | MsgId::NoticeEncoderNotCounted
                    | MsgId::NoticeSpeechOutputNotCounted
                    | MsgId::NoticeSpeechOutputCounted
                    | MsgId::NoticeUnknownQuant
                    | MsgId::NoticeQuantInvalid
                    | MsgId::NoticeQuantUnmatched
                    | MsgId::NoticeQuantEntriesUnmatched
                    | MsgId::NoticeQuantApprox
                    | MsgId::NoticeSlidingAllLayers
                    | MsgId::NoticeBlockDiffusion
                    | MsgId::WarnNotInRegistry
                    | MsgId::WarnEagerAttention
                    | MsgId::WarnOwnConfig
                    | MsgId::WarnNoArchitectures
                    | MsgId::NoteNeedsGguf
            )
    }
}

/// A sentence to show: a message id and its arguments.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Msg {
    /// Which sentence.
    pub id: MsgId,
    /// Its arguments, `{0}`, `{1}`… in the templates.
    pub args: Vec<Arg>,
}

impl Msg {
    /// A message with arguments.
    pub fn new(id: MsgId, args: Vec<Arg>) -> Self {
        Msg { id, args }
    }

    /// The sentence in `lang`, sizes in both units.
    pub fn render(&self, lang: Lang) -> String {
        self.render_in(lang, Units::Both)
    }

    /// The sentence in `lang`, sizes in `units`.
    pub fn render_in(&self, lang: Lang, units: Units) -> String {
        let template = template(self.id, lang);
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(start) = rest.find('{') {
            out.push_str(&rest[..start]);
            let after = &rest[start + 1..];
            match after.find('}') {
                Some(end) => {
                    let idx: Option<usize> = after[..end].parse().ok();
                    match idx.and_then(|i| self.args.get(i)) {
                        Some(arg) => write_arg(&mut out, arg, lang, units),
                        None => {
                            out.push('{');
                            out.push_str(&after[..=end]);
                        }
                    }
                    rest = &after[end + 1..];
                }
                None => {
                    out.push_str(&rest[start..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }
}

fn write_arg(out: &mut String, arg: &Arg, lang: Lang, units: Units) {
    match arg {
        Arg::Int(n) => out.push_str(&format_int(*n, lang)),
        Arg::Num(x, d) => out.push_str(&format_num(*x, *d, lang)),
        Arg::Size(b) => out.push_str(&format_size_in(*b, lang, units)),
        Arg::Text(t) => out.push_str(t),
    }
}

/// An integer with thousands separators: `8,030,261,248` in English, `8 030 261 248` in French
/// (narrow no-break spaces).
pub fn format_int(n: u64, lang: Lang) -> String {
    let digits = n.to_string();
    let sep = match lang {
        Lang::En => ",",
        Lang::Fr => "\u{202f}",
    };
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * sep.len());
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(c);
    }
    out
}

/// A rate (tokens per second) as the tables show it: whole above 100, one decimal below;
/// `None` when there is none to show (0, negative, not finite).
pub fn format_rate(x: f64) -> Option<String> {
    if !x.is_finite() || x <= 0.0 {
        None
    } else if x >= 100.0 {
        Some(alloc::format!("{x:.0}"))
    } else {
        Some(alloc::format!("{x:.1}"))
    }
}

/// A float with `decimals` decimals and the language's decimal mark.
pub fn format_num(x: f64, decimals: u8, lang: Lang) -> String {
    let mut s = String::new();
    let _ = write!(s, "{:.*}", decimals as usize, x);
    match lang {
        Lang::En => s,
        Lang::Fr => s.replace('.', ","),
    }
}

/// How sizes are written: decimal units (GB, 10⁹ bytes), binary units (GiB, 2³⁰ bytes), or the
/// decimal figure with the binary one beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Units {
    /// `14.00 GB (13.04 GiB)`.
    #[default]
    Both,
    /// `14.00 GB`.
    Decimal,
    /// `13.04 GiB`.
    Binary,
}

impl Units {
    /// Every choice, in the order a picker offers them.
    pub const ALL: [Units; 3] = [Units::Both, Units::Decimal, Units::Binary];

    /// The id in links (`both`, `gb`, `gib`).
    pub const fn id(self) -> &'static str {
        match self {
            Units::Both => "both",
            Units::Decimal => "gb",
            Units::Binary => "gib",
        }
    }

    /// Reads an id (any case); `None` when not one.
    pub fn parse(s: &str) -> Option<Units> {
        Units::ALL.into_iter().find(|u| u.id().eq_ignore_ascii_case(s.trim()))
    }
}

/// A size in decimal GB with its binary GiB beside it: `14.00 GB (13.04 GiB)`; in French, with
/// French units and typography: `14,00 Go (13,04 Gio)`, a no-break space before each unit.
pub fn format_size(b: Bytes, lang: Lang) -> String {
    format_size_in(b, lang, Units::Both)
}

/// A size written in `units`: `14.00 GB`, `13.04 GiB` or both (see [`format_size`]); the prefix
/// (G, M, k) follows the size in each system.
pub fn format_size_in(b: Bytes, lang: Lang, units: Units) -> String {
    let fr = lang == Lang::Fr;
    let n = b.get();
    let decimal = if n >= 1_000_000_000 {
        (b.as_gb(), if fr { "Go" } else { "GB" })
    } else if n >= 1_000_000 {
        (n as f64 / 1e6, if fr { "Mo" } else { "MB" })
    } else {
        (n as f64 / 1e3, if fr { "ko" } else { "KB" })
    };
    // The binary prefix follows the decimal one in the pair (a size of 1.02 GB reads 0.95 GiB,
    // not 972 MiB); written alone, it follows the size in binary units.
    let binary_at = |giga: bool, mega: bool| {
        if giga {
            (b.as_gib(), if fr { "Gio" } else { "GiB" })
        } else if mega {
            (b.as_mib(), if fr { "Mio" } else { "MiB" })
        } else {
            (n as f64 / 1024.0, if fr { "Kio" } else { "KiB" })
        }
    };
    let space = if fr { '\u{a0}' } else { ' ' };
    let one = |s: &mut String, (v, unit): (f64, &str)| {
        s.push_str(&format_num(v, 2, lang));
        s.push(space);
        s.push_str(unit);
    };
    let mut s = String::new();
    match units {
        Units::Both => {
            one(&mut s, decimal);
            s.push_str(" (");
            one(&mut s, binary_at(n >= 1_000_000_000, n >= 1_000_000));
            s.push(')');
        }
        Units::Decimal => one(&mut s, decimal),
        Units::Binary => one(&mut s, binary_at(n >= 1 << 30, n >= 1 << 20)),
    }
    s
}

macro_rules! messages {
    ($($(#[$doc:meta])* $id:ident => $en:literal, $fr:literal;)*) => {
        /// The sentences the core can say.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
        #[non_exhaustive]
        pub enum MsgId {
            $($(#[$doc])* $id,)*
        }

        /// Each message's English and French templates, in the order of [`MsgId`]: a table
        /// rather than a match, so the WASM holds data, not a branch per sentence.
        const TEMPLATES: &[(&str, &str)] = &[$(($en, $fr),)*];

        fn template(id: MsgId, lang: Lang) -> &'static str {
            let (en, fr) = TEMPLATES[id as usize];
            match lang {
                Lang::En => en,
                Lang::Fr => fr,
            }
        }
    };
}

messages! {
    /// Weights of a bare parameter count: params × bytes per parameter.
    WeightsFlat =>
        "{0} parameters × {1} bytes per parameter ({2})",
        "{0} paramètres × {1} octets par paramètre ({2})";
    /// The seed's rule: one format for every weight.
    AssumeUniformFormat =>
        "every weight stored in {0}; no quantization scales (the seed guide's table)",
        "tous les poids stockés en {0} ; sans échelles de quantification (tableau du guide)";
    /// Term name: weights.
    TermWeights => "Weights", "Poids";
    /// Term name: vision and audio encoders.
    TermEncoders => "Encoders", "Encodeurs";
    /// The encoders term.
    EncodersTerm =>
        "{0} encoder: {1} parameters in {2} blocks and its projector, {3} bytes each; a 1024×1024 image is {4} tokens of the context",
        "encodeur {0} : {1} paramètres en {2} blocs et son projecteur, {3} octets chacun ; une image 1024×1024 fait {4} jetons du contexte";
    /// An encoder read through cross-attention layers.
    EncodersTermCross =>
        "{0} encoder: {1} parameters in {2} blocks and its projector, {3} bytes each; an image is one token of the context, its tiles' positions attended by the cross-attention layers",
        "encodeur {0} : {1} paramètres en {2} blocs et son projecteur, {3} octets chacun ; une image est un jeton du contexte, les positions de ses tuiles lues par les couches d'attention croisée";
    /// An audio encoder's part of the encoders term.
    EncodersTermAudio =>
        "{0} audio encoder: {1} parameters in {2} blocks and its projector, {3} bytes each; 30 s of audio is {4} tokens of the context",
        "encodeur audio {0} : {1} paramètres en {2} blocs et son projecteur, {3} octets chacun ; 30 s d'audio font {4} jetons du contexte";
    /// The encoders term, read from the checkpoint's headers.
    EncodersFromFile =>
        "the checkpoint's vision and audio encoder tensors, as its headers store them",
        "les tenseurs des encodeurs vision et audio du point de contrôle, tels que ses en-têtes les stockent";
    /// vLLM's encoder under tensor parallelism.
    AssumeEncoderWholeVllm =>
        "vLLM runs the {0} as transformers builds it (plain linear layers): whole on each of the {1} GPUs, in 16 bits",
        "vLLM exécute le {0} tel que transformers le construit (couches linéaires simples) : entier sur chacun des {1} GPU, en 16 bits";
    /// Buffers vLLM builds beside an encoder's weights.
    AssumeEncoderVllmBuffers =>
        "vLLM builds block-FP8 copies of the {0}'s experts after loading (padded to 128 × 128 blocks, an FP32 scale each) and keeps the 16-bit ones: {1} more on each GPU",
        "vLLM construit des copies FP8 par blocs des experts du {0} après le chargement (complétées en blocs de 128 × 128, une échelle FP32 chacun) et garde celles en 16 bits : {1} de plus sur chaque GPU";
    /// vLLM shards the encoder.
    AssumeEncoderTp =>
        "{0} shards the encoder over the {1} GPUs (--mm-encoder-tp-mode data would copy all of it on each)",
        "{0} répartit l'encodeur sur les {1} GPU (--mm-encoder-tp-mode data le copierait en entier sur chacun)";
    /// llama.cpp's mmproj.
    AssumeEncoderMmproj =>
        "llama.cpp loads the encoder from the model's mmproj GGUF in F16 (--mmproj; without it, text only)",
        "llama.cpp charge l'encodeur depuis le GGUF mmproj du modèle en F16 (--mmproj ; sans lui, texte seulement)";
    /// The encoder on the first GPU.
    AssumeEncoderFirstGpu =>
        "the encoder sits whole on the first GPU",
        "l'encodeur est entier sur le premier GPU";
    /// Text only.
    NoteTextOnly =>
        "text only: the {0} encoder ({1}) is not loaded",
        "texte seulement : l'encodeur {0} ({1}) n'est pas chargé";
    /// Multimodal model served with its encoder.
    NoteEncoderLoaded =>
        "the {0} encoder takes {1} on the device: serving the model text only frees it when no images are sent",
        "l'encodeur {0} prend {1} sur l'appareil : servir le modèle en texte seul le libère si aucune image n'est envoyée";
    /// Term name: KV cache.
    TermKvCache => "KV cache", "Cache KV";
    /// Term name: recurrent state.
    TermState => "Recurrent state", "État récurrent";
    /// The draft model's term.
    TermDraft => "Draft model", "Modèle brouillon";
    /// Repacked weights.
    TermRepacked => "Repacked weights", "Poids réarrangés";
    /// The repacked weights' formula.
    HostRepacked =>
        "llama.cpp repacks the {0} weights it runs on this CPU ({1}) into its own buffer, anonymous memory: with the model file mapped, the file's pages of those tensors stay cached beside it until the system needs them (--no-mmap: one copy)",
        "llama.cpp réarrange les poids {0} qu'il exécute sur ce CPU ({1}) dans son propre tampon, en mémoire anonyme : avec le fichier du modèle mappé, les pages du fichier de ces tenseurs restent en cache à côté jusqu'à ce que le système en ait besoin (--no-mmap : une seule copie)";
    /// The draft model's formula.
    DraftTerm =>
        "draft model {0} for speculative decoding (-md, up to {1} tokens drafted): its weights {2}, KV cache {3} and compute buffer {4}, on the GPU",
        "modèle brouillon {0} pour le décodage spéculatif (-md, jusqu'à {1} tokens proposés) : ses poids {2}, son cache KV {3} et son buffer de calcul {4}, sur le GPU";
    /// What speculative decoding gives.
    AssumeDraftSpeedup =>
        "speculative decoding typically speeds decoding up 1.3–2.5× when the draft agrees often (code, repetitive text) and can slow it down when it does not; the speeds shown are without it",
        "le décodage spéculatif accélère en général le décodage de 1,3 à 2,5× quand le brouillon est souvent juste (code, texte répétitif) et peut le ralentir sinon ; les vitesses affichées sont sans lui";
    /// State formula.
    StateFormula =>
        "{0} sequence(s) × {1} per sequence ({2} recurrent layers: convolution and SSM / delta-rule state, {3} bytes per value), constant in the context",
        "{0} séquence(s) × {1} par séquence ({2} couches récurrentes : état de convolution et SSM / delta-rule, {3} octets par valeur), constant selon le contexte";
    /// DeepSeek V4's fixed cache per sequence.
    StateFormulaCompressed =>
        "{0} sequence(s) × {1} per sequence ({2} layers each keep a window of {3} raw rows, and the compressing ones their compressor's FP32 state), constant in the context",
        "{0} séquence(s) × {1} par séquence ({2} couches gardent chacune une fenêtre de {3} lignes brutes, et celles qui compressent l'état FP32 de leur compresseur), constant selon le contexte";
    /// llama.cpp keeps recurrent state in F32.
    AssumeStateF32 =>
        "llama.cpp keeps the recurrent state in F32 (its r and s caches), one cell per sequence",
        "llama.cpp garde l'état récurrent en F32 (ses caches r et s), une cellule par séquence";
    /// Other runtimes keep recurrent state in the model's dtype.
    StateFormulaSplit =>
        "{0} sequence(s) × {1} per sequence ({2} recurrent layers: convolution state in {3} bytes per value, SSM / delta-rule state in {4}), constant in the context",
        "{0} séquence(s) × {1} par séquence ({2} couches récurrentes : état de convolution en {3} octets par valeur, état SSM / delta-rule en {4}), constant selon le contexte";
    /// The recurrent state's dtype where the runtime keeps it in FP32.
    AssumeStateSsmF32 =>
        "the convolution state is kept in the model's 16-bit dtype and the SSM / delta-rule state in FP32, as this runtime builds this model",
        "l'état de convolution est gardé dans le type 16 bits du modèle et l'état SSM / delta-rule en FP32, comme ce moteur construit ce modèle";
    /// The recurrent state's dtype where the model's 16-bit dtype is assumed.
    AssumeStateModelDtype =>
        "the state is kept in the model's 16-bit dtype (vLLM's mamba_ssm_cache_dtype auto); FP32 state doubles it",
        "l'état est gardé dans le type 16 bits du modèle (mamba_ssm_cache_dtype auto de vLLM) ; un état FP32 le double";
    /// Term name: activations and workspace.
    TermActivations => "Activations", "Activations";
    /// Term name: gradients.
    TermGradients => "Gradients", "Gradients";
    /// Term name: optimizer states.
    TermOptimizer => "Optimizer states", "États de l'optimiseur";
    /// Term name: fp32 master weights.
    TermMasterWeights => "FP32 master copy", "Copie FP32 des poids";
    /// Term name: LoRA adapters.
    TermAdapters => "Adapters", "Adaptateurs";
    /// Term name: runtime overhead.
    TermOverhead => "Runtime overhead", "Overhead du runtime";

    /// Weights priced tensor by tensor.
    WeightsTensors =>
        "{0} parameters priced tensor by tensor in {1}: {2} bits per weight on average, scales included",
        "{0} paramètres comptés tenseur par tenseur en {1} : {2} bits par poids en moyenne, échelles comprises";
    /// Weights read from the checkpoint's own headers.
    WeightsFromFile =>
        "{0} tensors read from the checkpoint's own headers in {1}: their exact bytes, {2} bits per parameter on average",
        "{0} tenseurs lus dans les en-têtes du point de contrôle en {1} : leurs octets exacts, {2} bits par paramètre en moyenne";
    /// A quantized format applied to a bare count.
    AssumeFlatQuant =>
        "every weight in {0} at its block size; a real file keeps some tensors (embeddings, output, attn_v) at more bits, hence the band",
        "tous les poids en {0} à la taille de ses blocs ; un vrai fichier garde certains tenseurs (embeddings, sortie, attn_v) sur plus de bits, d'où la marge";
    /// Float formats: every tensor.
    AssumeFloatAll =>
        "every tensor stored in {0}, as in the checkpoint's safetensors files",
        "chaque tenseur stocké en {0}, comme dans les fichiers safetensors du checkpoint";
    /// GGUF file types.
    AssumeGgufRules =>
        "{0}: tensor types chosen by llama.cpp's llama_tensor_get_type (output and some attn_v / ffn_down layers at more bits; norms in F32)",
        "{0} : types de tenseurs choisis par llama_tensor_get_type de llama.cpp (sortie et certaines couches attn_v / ffn_down sur plus de bits ; normes en F32)";
    /// NVFP4 on every linear layer.
    AssumeNvfp4 =>
        "{0} on every linear layer of the blocks (4.5 bits: two codes per byte, one FP8 scale per 16, two FP32 scales per matrix); embeddings, head, routers and norms in BF16",
        "{0} sur chaque couche linéaire des blocs (4,5 bits : deux codes par octet, une échelle FP8 par 16, deux échelles FP32 par matrice) ; embeddings, tête, routeurs et normes en BF16";
    /// NVFP4 weights only.
    AssumeNvfp4A16 =>
        "{0} on every linear layer of the blocks (two codes per byte, one FP8 scale per 16, one FP32 scale per matrix; activations stay 16-bit); embeddings, head, routers and norms in BF16",
        "{0} sur chaque couche linéaire des blocs (deux codes par octet, une échelle FP8 par 16, une échelle FP32 par matrice ; activations en 16 bits) ; embeddings, tête, routeurs et normes en BF16";
    /// MXFP4 on experts.
    AssumeMxfp4Experts =>
        "{0} on the expert matrices (4.25 bits: 16 bytes of codes and one exponent byte per 32); attention, router, embeddings in BF16",
        "{0} sur les matrices des experts (4,25 bits : 16 octets de codes et un octet d'exposant par 32) ; attention, routeur, embeddings en BF16";
    /// FP8 block scales.
    AssumeFp8Blocks =>
        "{0} (E4M3) linear layers with one FP32 scale per 128×128 block; embeddings, output and norms in BF16",
        "{0} (E4M3) pour les couches linéaires avec une échelle FP32 par bloc 128×128 ; embeddings, sortie et normes en BF16";
    /// The weights band widened for an unread quantization.
    AssumeQuantUnread =>
        "the checkpoint's quantization was not fully read: the band covers what it may store",
        "la quantification du point de contrôle n'a pas été entièrement lue : la marge couvre ce qu'il peut stocker";
    /// Weights priced tensor by tensor from the checkpoint's quantization_config.
    AssumeQuantPlan =>
        "each tensor in the format the checkpoint's quantization_config ({0}) gives it, with the scales, zero points and shapes its tool stores:",
        "chaque tenseur dans le format que la quantization_config du point de contrôle ({0}) lui donne, avec les échelles, zéros et formes que son outil stocke :";
    /// One format's share of the weights.
    AssumePlanFormat =>
        "{0}: {1} in {2} tensors",
        "{0} : {1} dans {2} tenseurs";
    /// FP8 with explicit scales.
    AssumeFp8Scaled =>
        "{0} (E4M3) linear layers with their scales as the checkpoint's tool stores them; embeddings, output and norms in BF16",
        "{0} (E4M3) pour les couches linéaires avec leurs échelles telles que l'outil du point de contrôle les stocke ; embeddings, sortie et normes en BF16";
    /// Integer codes with 16-bit scales.
    AssumeIntScaled =>
        "{0} on the linear layers: codes packed in int32 words, a 16-bit scale per group (zero points when asymmetric) and each matrix's shape, as compressed-tensors writes them; embeddings, head and norms in BF16",
        "{0} sur les couches linéaires : codes compactés en mots int32, une échelle 16 bits par groupe (zéros si asymétrique) et la forme de chaque matrice, comme compressed-tensors les écrit ; embeddings, tête et normes en BF16";
    /// NF4.
    AssumeNf4 =>
        "{0} (bitsandbytes) on the linear layers: 4-bit codes and one absmax per 64 weights; embeddings and output head in 16-bit",
        "{0} (bitsandbytes) sur les couches linéaires : codes 4 bits et un absmax par 64 poids ; embeddings et tête de sortie en 16 bits";
    /// GPTQ / AWQ.
    AssumeGroupQuant =>
        "{0} on the linear layers: packed codes, FP16 scales and packed zeros per group (GPTQ also stores a g_idx per input row); embeddings and output head in FP16",
        "{0} sur les couches linéaires : codes compactés, échelles FP16 et zéros compactés par groupe (GPTQ stocke aussi un g_idx par ligne d'entrée) ; embeddings et tête de sortie en FP16";
    /// Generic int8/int4 with an architecture.
    AssumeIntLinear =>
        "{0} on the linear layers with their scales (INT8: one FP32 scale per output row; INT4: one FP16 scale per group of 128); embeddings and output head in 16-bit",
        "{0} sur les couches linéaires avec leurs échelles (INT8 : une échelle FP32 par ligne de sortie ; INT4 : une échelle FP16 par groupe de 128) ; embeddings et tête de sortie en 16 bits";
    /// Weights split across devices.
    AssumeWeightSplit =>
        "split across {0} devices the way {1} does it; the figure is the busiest device",
        "répartis sur {0} appareils comme le fait {1} ; le chiffre est celui de l'appareil le plus chargé";
    /// llama.cpp keeps token embeddings on the CPU.
    AssumeEmbeddingsOnCpu =>
        "llama.cpp keeps the input embeddings (token_embd) in system RAM, not on the GPU",
        "llama.cpp garde les embeddings d'entrée (token_embd) en RAM système, pas sur le GPU";
    /// KV formula.
    KvFormula =>
        "{0} sequence(s) × {1} tokens × {2} layers × ({3}) values × {4}",
        "{0} séquence(s) × {1} tokens × {2} couches × ({3}) valeurs × {4}";
    /// Cross-attention layers keep one image per sequence.
    AssumeCrossImage =>
        "{0} cross-attention layers keep the keys and values of one image's {1} positions per sequence, whatever the context (each further image as many again)",
        "{0} couches d'attention croisée gardent les clés et valeurs des {1} positions d'une image par séquence, quel que soit le contexte (autant pour chaque image de plus)";
    /// Sliding-window layers.
    AssumeSlidingLayers =>
        "{0} of {1} layers attend within a sliding window and keep at most {2} tokens",
        "{0} couches sur {1} utilisent une fenêtre glissante et gardent au plus {2} tokens";
    /// llama.cpp's cells.
    AssumeLlamaCppCells =>
        "llama.cpp allocates cells in multiples of {0}, one stream per sequence; its sliding layers keep the window plus one micro-batch ({1} tokens)",
        "llama.cpp alloue les cellules par multiples de {0}, un flux par séquence ; ses couches à fenêtre gardent la fenêtre plus un micro-batch ({1} tokens)";
    /// llama.cpp gives this family a full cache.
    AssumeLlamaCppFullCache =>
        "llama.cpp gives every layer of this family a full cache (it does not treat its sliding window as one), in multiples of {0} cells per sequence",
        "llama.cpp donne à chaque couche de cette famille un cache complet (il ne traite pas sa fenêtre glissante comme telle), par multiples de {0} cellules par séquence";
    /// KV split.
    AssumeKvSplit =>
        "each device holds {0}/{1} of the cache",
        "chaque appareil garde {0}/{1} du cache";
    /// vLLM's decode context parallelism.
    AssumeKvDcp =>
        "decode context parallelism: {0} GPUs share each request's full-attention cache, each keeping every {0}th token",
        "parallélisme de contexte au décodage : {0} GPU se partagent le cache d'attention complète de chaque requête, chacun en gardant un jeton sur {0}";
    /// Stand-in shape.
    AssumeStandIn =>
        "no architecture given: the shape of {0}, the closest catalog model in size, stands in; a real config makes this exact",
        "aucune architecture donnée : la forme de {0}, le modèle du catalogue le plus proche en taille, sert d'exemple ; une vraie config rend ce chiffre exact";
    /// llama.cpp compute buffer with flash attention.
    ActLlamaCppFa =>
        "llama.cpp compute buffer: its graph allocator replayed over one micro-batch of {0} tokens with flash attention, node by node (the largest tensor, often the {2}-token-vocabulary logits: {1})",
        "buffer de calcul llama.cpp : son allocateur de graphe rejoué sur un micro-batch de {0} tokens avec flash attention, nœud par nœud (le plus gros tenseur, souvent les logits du vocabulaire de {2} tokens : {1})";
    /// llama.cpp compute buffer without flash attention.
    ActLlamaCppNoFa =>
        "llama.cpp compute buffer without flash attention: its graph allocator replayed over one micro-batch of {0} tokens, F32 attention scores included (logits of the {2}-token vocabulary: {1})",
        "buffer de calcul llama.cpp sans flash attention : son allocateur de graphe rejoué sur un micro-batch de {0} tokens, scores d'attention F32 compris (logits du vocabulaire de {2} tokens : {1})";
    /// A mixer whose llama.cpp graph is not rebuilt node for node.
    AssumeLlamaCppGraphStandIn =>
        "some layers (linear attention, Mamba-1, a sparse-attention indexer) or a quantized latent cache are stood in for in the replayed graph: a wider band",
        "certaines couches (attention linéaire, Mamba-1, indexeur d'attention clairsemée) ou un cache latent quantifié sont remplacés dans le graphe rejoué : fourchette élargie";
    /// ubatch assumption.
    AssumeUbatch =>
        "micro-batch (-ub) of {0} tokens; KV cells padded to 256",
        "micro-batch (-ub) de {0} tokens ; cellules KV arrondies à 256";
    /// transformers prefill.
    ActTransformers =>
        "prefill of {0} tokens at once in 16-bit: hidden states (2 × {1}) and the MLP's gate, up and product (3 × {2}) per token, plus last-token logits in FP32",
        "préremplissage de {0} tokens d'un coup en 16 bits : états cachés (2 × {1}) et gate, up et produit du MLP (3 × {2}) par token, plus les logits du dernier token en FP32";
    /// Whole prompt prefill.
    AssumeWholePromptPrefill =>
        "the whole prompt is processed in one forward pass (transformers' generate); SDPA/flash attention does not store the score matrix",
        "tout le prompt passe en une seule passe (generate de transformers) ; l'attention SDPA/flash ne stocke pas la matrice des scores";
    /// Eager attention.
    AssumeEagerScores =>
        "without flash attention the batch × heads × context² scores are stored in 16 and 32 bits",
        "sans flash attention les scores batch × têtes × contexte² sont stockés en 16 et 32 bits";
    /// vLLM profile run.
    ActVllm =>
        "vLLM's profile step, PyTorch's peak: {0} batched tokens through one layer, or the sampler's {1} requests × {2} logits (FP32 copies, top-k/top-p sort, probabilities: about 38 bytes each), whichever is larger",
        "passe de profilage de vLLM, pic de PyTorch : {0} tokens groupés dans une couche, ou les {1} requêtes × {2} logits de l'échantillonneur (copies FP32, tri top-k/top-p, probabilités : environ 38 octets chacun), le plus grand des deux";
    /// vLLM profile run on its V2 model runner.
    ActVllmV2 =>
        "vLLM's profile step, PyTorch's peak: {0} batched tokens through one layer, or the sampler's {1} requests × {2} logits (the V2 runner's: 16-bit logits and an FP32 copy, top-k/top-p without a sort: {3} bytes each), whichever is larger",
        "passe de profilage de vLLM, pic de PyTorch : {0} tokens groupés dans une couche, ou les {1} requêtes × {2} logits de l'échantillonneur (celui du runner V2 : logits 16 bits et une copie FP32, top-k/top-p sans tri : {3} octets chacun), le plus grand des deux";
    /// vLLM profile run of a block-diffusion model.
    ActVllmCanvas =>
        "vLLM's profile step, PyTorch's peak: {0} batched tokens through one layer, or the diffusion sampler's one canvas of {1} tokens × {2} logits (16-bit logits and probabilities: 4 bytes each), whichever is larger",
        "passe de profilage de vLLM, pic de PyTorch : {0} tokens groupés dans une couche, ou le canevas de {1} tokens × {2} logits de l'échantillonneur de diffusion (logits et probabilités en 16 bits : 4 octets chacun), le plus grand des deux";
    /// vLLM profile assumption.
    AssumeVllmProfile =>
        "--max-num-batched-tokens {0} and --max-num-seqs {1} (vllm serve's defaults: 8192 and 1024 on cards of 70 GiB or more other than A100s, else 2048 and 256); vLLM gives the KV cache what is left of its share of the GPU",
        "--max-num-batched-tokens {0} et --max-num-seqs {1} (valeurs par défaut de vllm serve : 8192 et 1024 sur les cartes de 70 Gio ou plus hors A100, sinon 2048 et 256) ; vLLM donne au cache KV ce qui reste de sa part du GPU";
    /// vLLM's data-parallel encoder.
    AssumeEncoderDataParallel =>
        "--mm-encoder-tp-mode data: the whole encoder on each of the {0} GPUs, the images split among them (for models vLLM runs so; others fall back to sharding it)",
        "--mm-encoder-tp-mode data : l'encodeur entier sur chacun des {0} GPU, les images réparties entre eux (pour les modèles que vLLM fait tourner ainsi ; sinon il le répartit)";
    /// The encoder beside llama.cpp's buffer.
    AssumeEncoderActivationBeside =>
        "with an image or a clip: the {0} encoder's graph for its largest input ({1} positions), {2} in F32 with flash attention, runs in the mmproj context beside the model's buffer — reserved at start for a smaller warm-up image, grown by the first large one (×0.3–3); text only frees it",
        "avec une image ou un extrait : le graphe de l'encodeur {0} pour sa plus grande entrée ({1} positions), {2} en F32 avec l'attention flash, tourne dans le contexte mmproj à côté du tampon du modèle — réservé au démarrage pour une image d'amorce plus petite, agrandi par la première grande (×0,3–3) ; en texte seul, rien";
    /// The encoder before the prompt's prefill.
    AssumeEncoderActivationBefore =>
        "with an image or a clip: the {0} encoder's working set for its largest input ({1} positions), {2}, comes before the prompt's prefill: the larger of the two counts (×0.5–2); text only frees it",
        "avec une image ou un extrait : la mémoire de travail de l'encodeur {0} pour sa plus grande entrée ({1} positions), {2}, précède le préremplissage du prompt : la plus grande des deux compte (×0,5–2) ; en texte seul, rien";
    /// vLLM's multimodal profile.
    AssumeVllmEncoderProfile =>
        "before it, the encoder runs {0} dummy items of the largest size ({1} tokens each; encoder cache budget {2} tokens): {3} of working set, and their outputs ({4}) stay through the language model's step; with a text-only launch neither happens",
        "avant cela, l'encodeur traite {0} éléments factices de la plus grande taille ({1} jetons chacun ; budget du cache de l'encodeur {2} jetons) : {3} de mémoire de travail, et leurs sorties ({4}) restent pendant l'étape du modèle de langue ; lancé en texte seul, rien de cela n'a lieu";
    /// SGLang chunked prefill.
    ActSglang =>
        "SGLang's chunked prefill: {0} tokens through one layer in 16-bit, hidden states (2 × {1}) and the MLP (3 × {2}) per token",
        "préremplissage par morceaux de SGLang : {0} tokens dans une couche en 16 bits, états cachés (2 × {1}) et MLP (3 × {2}) par token";
    /// MLX prefill.
    ActMlx =>
        "mlx-lm prefill step of {0} tokens in 16-bit: hidden states (2 × {1}) and the MLP (3 × {2}) per token",
        "pas de préremplissage mlx-lm de {0} tokens en 16 bits : états cachés (2 × {1}) et MLP (3 × {2}) par token";
    /// Flat activations.
    ActFlat =>
        "temporary computation taken as 5% of the weights",
        "calcul temporaire estimé à 5 % des poids";
    /// No shape known.
    AssumeNoShape =>
        "no architecture is known for a bare parameter count, hence the wide band",
        "aucune architecture n'est connue pour un simple nombre de paramètres, d'où la large marge";
    /// transformers overhead.
    OverheadTransformers =>
        "CUDA context and cuBLAS workspaces, {0}, plus PyTorch allocator fragmentation, {1} (5% of the cache and activations)",
        "contexte CUDA et espaces de travail cuBLAS, {0}, plus fragmentation de l'allocateur PyTorch, {1} (5 % du cache et des activations)";
    /// vLLM overhead.
    OverheadVllm =>
        "non-torch memory {0}, CUDA graphs' reserve {1} and the buffers built with the model and its sampler (rotary caches, penalty counts) {2} inside vLLM's share (the CUDA context lives outside it)",
        "mémoire hors PyTorch {0}, réserve des graphes CUDA {1} et tampons construits avec le modèle et son échantillonneur (caches rotatifs, comptes de pénalités) {2} dans la part de vLLM (le contexte CUDA vit en dehors)";
    /// SGLang overhead.
    OverheadSglang =>
        "what SGLang keeps free beside the activations: {0} of (1 − mem_fraction_static) of the memory free at start, for CUDA graphs and the allocator",
        "ce que SGLang garde libre en plus des activations : {0} de (1 − mem_fraction_static) de la mémoire libre au démarrage, pour les graphes CUDA et l'allocateur";
    /// llama.cpp overhead.
    OverheadLlamaCpp =>
        "{3} context and its math library's workspaces: {0}",
        "contexte {3} et les espaces de travail de sa bibliothèque de calcul : {0}";
    /// MLX overhead.
    OverheadMlx =>
        "Metal runtime and the Python process: {0}; no CUDA context",
        "runtime Metal et processus Python : {0} ; pas de contexte CUDA";
    /// CPU overhead.
    OverheadCpu =>
        "the process and its buffers: {0}; CPU inference has no CUDA context",
        "le processus et ses buffers : {0} ; l'inférence CPU n'a pas de contexte CUDA";
    /// NCCL.
    AssumeNccl =>
        "plus about 300 MiB of NCCL communication buffers per GPU",
        "plus environ 300 Mio de buffers de communication NCCL par GPU";
    /// Host weights.
    HostWeights =>
        "weights kept in system RAM (input embeddings, offloaded layers)",
        "poids gardés en RAM système (embeddings d'entrée, couches déchargées)";
    /// Host process.
    HostProcess =>
        "the {0} process (libraries, tokenizer, pinned buffers)",
        "le processus {0} (bibliothèques, tokenizer, buffers épinglés)";
    /// Host KV.
    HostKv =>
        "the KV cache of the layers kept on the CPU",
        "le cache KV des couches gardées sur le CPU";
    /// Recurrent state of offloaded layers in system RAM.
    HostState =>
        "recurrent state of the layers kept in system RAM",
        "état récurrent des couches gardées en RAM système";
    /// Host compute buffer.
    HostCompute =>
        "the CPU's compute buffer for the layers it runs",
        "le buffer de calcul du CPU pour les couches qu'il exécute";
    /// Offloaded layers.
    NoteOffloaded =>
        "{0} of {1} layers run on the CPU from system RAM (llama.cpp -ngl); every token waits for them",
        "{0} couches sur {1} tournent sur le CPU depuis la RAM système (llama.cpp -ngl) ; chaque token les attend";
    /// Ollama's num_batch.
    NoteOllamaBatch =>
        "Ollama sets llama-server's -b and -ub to one num_batch; unset, it picks {0} for this context and memory (PARAMETER num_batch sets it)",
        "Ollama donne à -b et -ub de llama-server un seul num_batch ; non fixé, il choisit {0} pour ce contexte et cette mémoire (PARAMETER num_batch le fixe)";
    /// Ollama's context default.
    NoteOllamaContext =>
        "Ollama's own default context here is {0} tokens (OLLAMA_CONTEXT_LENGTH unset: 4k under 23 GiB of VRAM, 32k under 47 GiB, 256k beyond, at most the model's {1}); the estimate uses {2}",
        "le contexte par défaut d'Ollama ici est de {0} tokens (sans OLLAMA_CONTEXT_LENGTH : 4k sous 23 Gio de VRAM, 32k sous 47 Gio, 256k au-delà, au plus les {1} du modèle) ; l'estimation prend {2}";
    /// transformers' device_map split.
    NoteDeviceMap =>
        "device_map=\"auto\": the embeddings and the first {0} of {1} layers on the GPU, {2} of weights in system RAM, each offloaded layer copied to the GPU while it runs (the largest, {3}, counted on the GPU)",
        "device_map=\"auto\" : les embeddings et les {0} premières couches sur {1} sur le GPU, {2} de poids en RAM système, chaque couche déchargée copiée sur le GPU le temps de son calcul (la plus grosse, {3}, comptée sur le GPU)";
    /// gpu_layers only for llama.cpp and transformers.
    NoteGpuLayersLlamaCpp =>
        "GPU layers (-ngl) apply to llama.cpp and Ollama, and to transformers on one GPU (device_map); ignored for this runtime",
        "les couches GPU (-ngl) ne valent que pour llama.cpp et Ollama, et pour transformers sur un GPU (device_map) ; ignorées pour ce runtime";
    /// Training: weights.
    TrainWeights =>
        "{0} parameters × {1} bytes",
        "{0} paramètres × {1} octets";
    /// Training: gradients.
    TrainGradients =>
        "one gradient per trained parameter: {0} × {1} bytes",
        "un gradient par paramètre entraîné : {0} × {1} octets";
    /// Training: master copy.
    TrainMaster =>
        "FP32 copy of the weights for the optimizer's update: {0} × 4 bytes",
        "copie FP32 des poids pour la mise à jour de l'optimiseur : {0} × 4 octets";
    /// Training: optimizer states.
    TrainOptimizer =>
        "{0} states for {1} parameters, {2} bytes each in all",
        "états de {0} pour {1} paramètres, {2} octets chacun en tout";
    /// LoRA frozen base.
    TrainFrozenBase =>
        "frozen base: {0} parameters in {1}, not updated",
        "base gelée : {0} paramètres en {1}, non mis à jour";
    /// LoRA adapters.
    TrainAdapters =>
        "{0} adapter parameters (rank {1} on {2}) × 4 bytes",
        "{0} paramètres d'adaptateurs (rang {1} sur {2}) × 4 octets";
    /// Training activations.
    TrainActivations =>
        "what autograd keeps for {0} sequence(s) × {1} tokens through {2} layers, tensor by tensor (norms, projections' inputs, attention, MLP), and the loss over {3} vocabulary entries, at the step's peak moment",
        "ce qu'autograd garde pour {0} séquence(s) × {1} tokens dans {2} couches, tenseur par tenseur (normes, entrées des projections, attention, MLP), et la perte sur {3} entrées de vocabulaire, au moment du pic du pas";
    /// Training overhead.
    TrainOverhead =>
        "CUDA context, {0}, plus allocator fragmentation, {1} (3% of the rest)",
        "contexte CUDA, {0}, plus fragmentation de l'allocateur, {1} (3 % du reste)";
    /// Host offload.
    TrainHostOffload =>
        "states offloaded to CPU memory by the {0} GPU(s) of a node (ZeRO-Offload)",
        "états déchargés en mémoire CPU par les {0} GPU d'un nœud (ZeRO-Offload)";
    /// Precision recipe.
    AssumeTrainPrecision =>
        "precision recipe `{0}` (mixed: 16-bit weights and gradients, FP32 master copy — the seed guide's table)",
        "recette de précision `{0}` (mixte : poids et gradients 16 bits, copie maîtresse FP32 — le tableau du guide)";
    /// ZeRO.
    AssumeZero =>
        "ZeRO stage {0} over {1} data-parallel GPUs (Rajbhandari et al. 2020): stage 1 splits optimizer states and the master copy, 2 also gradients, 3 also weights",
        "ZeRO étape {0} sur {1} GPU en parallélisme de données (Rajbhandari et al. 2020) : l'étape 1 répartit les états de l'optimiseur et la copie maîtresse, 2 aussi les gradients, 3 aussi les poids";
    /// ZeRO-3 gather.
    AssumeZero3Gather =>
        "plus {0} parameters gathered whole in the compute dtype: the running layer and the one prefetched (or the largest tensor, when bigger)",
        "plus {0} paramètres rassemblés en entier dans le type de calcul : la couche en cours et celle préchargée (ou le plus grand tenseur, s'il est plus gros)";
    /// Float8 training.
    AssumeFloat8 =>
        "float8 training (torchao's Float8Linear): the 16-bit input and weight are kept for the backward pass as without it, plus one linear's FP8 casts at a time",
        "entraînement float8 (Float8Linear de torchao) : l'entrée et le poids 16 bits sont gardés pour la rétropropagation comme sans lui, plus les conversions FP8 d'une couche linéaire à la fois";
    /// DeepSpeed's gradient buckets.
    AssumeZeroBuckets =>
        "plus DeepSpeed's {0} gradient bucket(s) of {1} elements × {2} bytes (reduce_bucket_size; overlap_comm doubles them at ZeRO-1/2), and up to {3} copied for a moment per reduction",
        "plus {0} tampon(s) de gradients DeepSpeed de {1} éléments × {2} octets (reduce_bucket_size ; overlap_comm les double en ZeRO-1/2), et jusqu'à {3} copiés un instant à chaque réduction";
    /// ZeRO-3 unsharded gradients.
    AssumeZero3Reduce =>
        "plus one layer's gradients whole ({0} parameters) until they are reduce-scattered",
        "plus les gradients entiers d'une couche ({0} paramètres) jusqu'à leur reduce-scatter";
    /// QLoRA base.
    AssumeQloraBase =>
        "QLoRA: NF4 with double quantization (blocks of 64, about 4.127 bits per weight), computing in BF16",
        "QLoRA : NF4 avec double quantification (blocs de 64, environ 4,127 bits par poids), calcul en BF16";
    /// Adapters fp32.
    AssumeAdaptersFp32 =>
        "peft keeps adapters in FP32 (autocast_adapter_dtype)",
        "peft garde les adaptateurs en FP32 (autocast_adapter_dtype)";
    /// Paged optimizer.
    AssumePaged =>
        "paged optimizer: its states may spill to CPU memory under pressure instead of failing",
        "optimiseur paginé : ses états peuvent déborder en mémoire CPU au lieu d'échouer";
    /// Offload asked without ZeRO.
    AssumeOffloadNeedsZero =>
        "offload to CPU needs ZeRO stage 1 or more (DeepSpeed offloads what ZeRO partitions): ignored at stage 0",
        "le déchargement vers le CPU demande ZeRO niveau 1 ou plus (DeepSpeed décharge ce que ZeRO partitionne) : ignoré au niveau 0";
    /// Offloaded.
    AssumeOffloaded =>
        "offloaded to CPU memory (shown under system RAM)",
        "déchargé en mémoire CPU (voir la RAM système)";
    /// Offload buffers.
    AssumeOffloadBuffer =>
        "pinned buffers can add up to half again (DeepSpeed's additional_buffer_factor 1.5)",
        "les buffers épinglés peuvent ajouter jusqu'à moitié plus (additional_buffer_factor 1,5 de DeepSpeed)";
    /// No checkpointing.
    AssumeNoCheckpointing =>
        "no gradient checkpointing: every layer keeps its activations for the backward pass",
        "pas de gradient checkpointing : chaque couche garde ses activations pour la passe arrière";
    /// Selective.
    AssumeSelectiveCheckpointing =>
        "selective checkpointing (PyTorch's, per operation, as torchtitan applies it): each layer keeps its input, every second matrix product's output and attention's output; the rest is recomputed",
        "checkpointing sélectif (celui de PyTorch, par opération, comme torchtitan l'applique) : chaque couche garde son entrée, la sortie d'un produit matriciel sur deux et celle de l'attention ; le reste est recalculé";
    /// Full.
    AssumeFullCheckpointing =>
        "full checkpointing: each layer keeps only its input and is recomputed in the backward pass (one layer's activations live at a time)",
        "checkpointing complet : chaque couche ne garde que son entrée et est recalculée pendant la passe arrière (les activations d'une seule couche à la fois)";
    /// Flash in training.
    AssumeFlashTraining =>
        "flash attention: no score matrix, only a log-sum-exp per head and token",
        "flash attention : pas de matrice de scores, seulement un log-sum-exp par tête et par token";
    /// Eager in training.
    AssumeEagerTraining =>
        "without flash attention the softmax output (2 bytes × heads × sequence²) is kept per layer",
        "sans flash attention la sortie du softmax (2 octets × têtes × séquence²) est gardée par couche";
    /// Logits.
    AssumeLogits =>
        "of which the loss: {0} (transformers upcasts the whole logits to FP32; the log-softmax and the two FP32 gradients that start the backward pass, 12 bytes × vocabulary per token)",
        "dont la perte : {0} (transformers convertit tous les logits en FP32 ; le log-softmax et les deux gradients FP32 qui ouvrent la passe arrière, 12 octets × vocabulaire par token)";
    /// Chunked loss.
    AssumeLogitsChunked =>
        "of which the loss: {0} (chunked cross-entropy: 16-bit logits and the FP32 log-softmax, upcast chunk by chunk)",
        "dont la perte : {0} (entropie croisée par morceaux : logits 16 bits et log-softmax FP32, convertis morceau par morceau)";
    /// Fused loss.
    AssumeLogitsFused =>
        "of which the loss: {0} (fused linear cross-entropy: the logits are never built, a hidden-sized chunk at a time)",
        "dont la perte : {0} (entropie croisée linéaire fusionnée : les logits ne sont jamais construits, un morceau de la taille du modèle à la fois)";
    /// LoRA dropout.
    AssumeLoraDropout =>
        "LoRA dropout on: each adapted module keeps its own copy of its input and a mask for the backward pass",
        "dropout LoRA actif : chaque module adapté garde sa propre copie de son entrée et un masque pour la passe arrière";
    /// No LoRA dropout.
    AssumeLoraNoDropout =>
        "LoRA dropout off: the adapters keep their input cast to their dtype; the frozen base keeps nothing",
        "dropout LoRA désactivé : les adaptateurs gardent leur entrée dans leur type ; la base gelée ne garde rien";
    /// Autocast copies.
    AssumeAutocastCopies =>
        "autocast keeps BF16 copies of the FP32 weights for the matmuls: {0}",
        "autocast garde des copies BF16 des poids FP32 pour les produits matriciels : {0}";
    /// device_map.
    AssumeDeviceMap =>
        "device_map: the layers split over {0} GPUs (one at work at a time): each holds its share; the last also holds the head and the loss",
        "device_map : les couches réparties sur {0} GPU (un seul au travail à la fois) : chacun garde sa part ; le dernier garde aussi la tête et la perte";
    /// DoRA.
    AssumeDora =>
        "DoRA: each adapted module also keeps the base's and the adapter's outputs for the magnitude's gradient, and builds one full W + BA at a time for its norm",
        "DoRA : chaque module adapté garde aussi les sorties de la base et de l'adaptateur pour le gradient de la magnitude, et construit une matrice W + BA complète à la fois pour sa norme";
    /// torch.compile.
    AssumeCompile =>
        "torch.compile: fused element-wise kernels keep a norm's input alone and a gated MLP's gate and up, recomputing the rest; a chunked loss keeps only its 16-bit logits (band 0.6–1.2)",
        "torch.compile : les noyaux fusionnés ne gardent que l'entrée d'une normalisation et la porte et la montée d'un MLP à porte, le reste est recalculé ; une perte par morceaux ne garde que ses logits 16 bits (fourchette 0,6–1,2)";
    /// transformers' eager attention by default for a model without SDPA, under its trainers.
    WarnEagerAttention =>
        "transformers has no SDPA attention for `{0}` and builds it with eager attention unless it is loaded with another (attn_implementation=\"flash_attention_2\", a kernels-community flash kernel or \"flex_attention\"): the activations keep every layer's score matrix; the band's bottom is flash attention's",
        "transformers n'a pas d'attention SDPA pour `{0}` et le construit avec l'attention eager, sauf s'il est chargé avec une autre (attn_implementation=\"flash_attention_2\", un noyau flash de kernels-community ou \"flex_attention\") : les activations gardent la matrice des scores de chaque couche ; le bas de la fourchette est celui de l'attention flash";
    /// Tensor parallelism without sequence parallelism.
    AssumeTpReplicated =>
        "tensor parallelism over {0} GPUs without sequence parallelism: each GPU keeps the norms and the residual stream the projections read whole; heads and intermediate widths divide",
        "parallélisme de tenseurs sur {0} GPU sans parallélisme de séquence : chaque GPU garde entiers les normes et le flux résiduel que lisent les projections ; têtes et largeurs intermédiaires se divisent";
    /// Tensor parallelism with sequence parallelism.
    AssumeTpSequenceParallel =>
        "tensor and sequence parallelism over {0} GPUs: every kept tensor divides, the norms' and the residual stream's along the sequence (Megatron's --sequence-parallel)",
        "parallélisme de tenseurs et de séquence sur {0} GPU : chaque tenseur gardé se divise, ceux des normes et du flux résiduel le long de la séquence (--sequence-parallel de Megatron)";
    /// Each sequence split over several GPUs.
    AssumeSequenceSplit =>
        "each sequence split over {0} GPUs (ring attention × {1}, Ulysses × {2}): activations and the loss count {3} tokens per GPU; the K/V blocks passed around and the all-to-all buffers are not counted",
        "chaque séquence répartie sur {0} GPU (attention en anneau × {1}, Ulysses × {2}) : activations et perte comptent {3} jetons par GPU ; les blocs K/V échangés et les tampons all-to-all ne sont pas comptés";
    /// Activation offload.
    AssumeActivationOffload =>
        "activation offloading: saved tensors live in CPU memory except the running layer's (shown under system RAM)",
        "déchargement des activations : les tenseurs gardés vivent en mémoire CPU sauf ceux de la couche en cours (voir la RAM système)";
    /// Gradients appear as activations are freed.
    AssumeGradsAfterActivations =>
        "the activations peak at {0} before any gradient exists (gradients are set to None after each step); the {1} of gradients are built as they are freed, so only the part above the gradients adds",
        "les activations culminent à {0} avant qu'aucun gradient n'existe (remis à None après chaque pas) ; les {1} de gradients se construisent à mesure qu'elles sont libérées : seule la part au-delà des gradients s'ajoute";
    /// Offloaded checkpointing.
    AssumeOffloadedCheckpointing =>
        "offloaded checkpointing (Unsloth): each layer's input waits in CPU memory; one layer is recomputed at a time",
        "checkpointing déchargé (Unsloth) : l'entrée de chaque couche attend en mémoire CPU ; une couche recalculée à la fois";
    /// Optimizer in backward.
    AssumeOptimizerInBackward =>
        "optimizer in the backward pass: each parameter is stepped as soon as its gradient is ready, so only the largest gradient exists at a time",
        "optimiseur dans la passe arrière : chaque paramètre est mis à jour dès que son gradient est prêt, un seul gradient (le plus grand) existe à la fois";
    /// k-bit upcast.
    AssumeKbitUpcast =>
        "peft's prepare_model_for_kbit_training upcasts the {0} unquantized parameters (embeddings, head, norms) to FP32",
        "prepare_model_for_kbit_training de peft convertit en FP32 les {0} paramètres non quantifiés (embeddings, tête, normes)";
    /// Autocast over an FP32 base.
    AssumeAutocastBase =>
        "FP32 base under BF16 autocast: each matmul's BF16 cast of its frozen weight is kept for the backward pass (under the activations)",
        "base FP32 sous autocast BF16 : la copie BF16 de chaque poids gelé est gardée pour la passe arrière (comptée dans les activations)";
    /// BF16 adapters.
    AssumeAdaptersBf16 =>
        "adapters, their gradients and optimizer states in BF16 (the model's dtype, as torchtune and LitGPT keep them)",
        "adaptateurs, gradients et états de l'optimiseur en BF16 (le type du modèle, comme torchtune et LitGPT)";
    /// Host activations.
    TrainHostActivations =>
        "activations offloaded to CPU memory by {0} GPUs",
        "activations déchargées en mémoire CPU par {0} GPU";
    /// Training process on the host.
    HostTrainingProcess =>
        "the training process (PyTorch, data loaders, pinned buffers)",
        "le processus d'entraînement (PyTorch, chargeurs de données, buffers épinglés)";
    /// QLoRA is NF4.
    NoteQloraIsNf4 =>
        "QLoRA quantizes the base to NF4: the weight format given is not used",
        "QLoRA quantifie la base en NF4 : le format de poids donné n'est pas utilisé";
    /// Paged states outside the allocator.
    NotePagedOutsideAllocator =>
        "paged optimizer states live in CUDA unified memory, outside PyTorch's allocator: torch.cuda.max_memory_allocated would report about {0}, nvidia-smi the total",
        "les états de l'optimiseur paginé vivent en mémoire unifiée CUDA, hors de l'allocateur de PyTorch : torch.cuda.max_memory_allocated indiquerait environ {0}, nvidia-smi le total";
    /// Offload at ZeRO-0.
    NoteOffloadNeedsZero =>
        "offload to CPU memory needs ZeRO stage 1 or more (DeepSpeed offloads what ZeRO partitions): not applied at stage 0",
        "le déchargement en mémoire CPU demande ZeRO étape 1 ou plus (DeepSpeed décharge ce que ZeRO partitionne) : non appliqué à l'étape 0";
    /// Float8 training on a device without FP8 units.
    NoteFloat8NoUnits =>
        "{0} has no FP8 tensor cores: float8 training would run at the 16-bit rate (torchao's float8 needs Ada, Hopper, Blackwell or MI300); timed without its gain",
        "{0} n'a pas de cœurs tensoriels FP8 : l'entraînement float8 y tournerait au débit 16 bits (le float8 de torchao demande Ada, Hopper, Blackwell ou MI300) ; temps compté sans son gain";
    /// Sequence splitting over a model with recurrent layers.
    NoteSequenceSplitRecurrent =>
        "ring attention and Ulysses split attention layers along the sequence; this model's recurrent layers (Mamba, linear attention) scan the whole sequence and their implementations may not split them: the activations' figure counts them split, the top of its band whole",
        "l'attention en anneau et Ulysses divisent les couches d'attention le long de la séquence ; les couches récurrentes de ce modèle (Mamba, attention linéaire) parcourent toute la séquence et leurs implémentations peuvent ne pas les diviser : le chiffre des activations les compte divisées, le haut de sa fourchette entières";
    /// Sequence parallelism without tensor parallelism.
    NoteSequenceParallelNoTp =>
        "sequence parallelism splits what tensor parallelism keeps whole: without tensor parallelism above 1 it changes nothing",
        "le parallélisme de séquence divise ce que le parallélisme de tenseurs garde entier : sans parallélisme de tenseurs au-delà de 1, il ne change rien";
    /// Padded micro-batches compute their padding.
    NotePadding =>
        "padded micro-batches of {0} samples averaging {1} tokens: each as long as its longest, about {2}× the data's tokens computed (1× grouped by length, up to {3}×); packing or padding-free compute only the data's tokens. The peak memory is the longest batch's either way",
        "micro-lots remplis de {0} échantillons de {1} jetons en moyenne : chacun aussi long que son plus long, environ {2}× les jetons des données calculés (1× regroupés par longueur, jusqu'à {3}×) ; l'empaquetage ou le sans-remplissage ne calculent que les jetons des données. Le pic de mémoire est celui du lot le plus long dans tous les cas";
    /// Mean sample longer than the sequence.
    NoteMeanSampleTruncated =>
        "a mean sample of {0} tokens is longer than the sequence ({1}): samples are truncated to it, so the mean is taken as {1}",
        "un échantillon moyen de {0} jetons dépasse la séquence ({1}) : les échantillons y sont tronqués, la moyenne est donc prise à {1}";
    /// Float8 training asked outside full fine-tuning.
    NoteFloat8FullOnly =>
        "float8 training converts the trained linear layers (full fine-tuning): not applied to LoRA or QLoRA",
        "l'entraînement float8 convertit les couches linéaires entraînées (réglage complet) : non appliqué à LoRA ni QLoRA";
    /// DeepSpeed's bucket settings without DeepSpeed ZeRO.
    NoteBucketsNeedDeepspeed =>
        "reduce_bucket_size and overlap_comm are DeepSpeed ZeRO's (stage 1 or more, not FSDP): not applied here",
        "reduce_bucket_size et overlap_comm sont ceux de DeepSpeed ZeRO (étape 1 ou plus, pas FSDP) : non appliqués ici";
    /// ZeRO on one GPU.
    NoteZeroOneGpu =>
        "ZeRO stage {0} on a single data-parallel GPU partitions nothing: applied as asked (its buffers kept, nothing shared)",
        "ZeRO étape {0} sur un seul GPU en parallélisme de données ne répartit rien : appliqué tel quel (ses buffers gardés, rien de partagé)";
    /// A LoRA base dequantized.
    NoteLoraBaseDequantized =>
        "a {0} base has no training path in peft: it is loaded dequantized to BF16 (give --weights bf16, int8, nf4 or fp32 to choose)",
        "une base {0} n'a pas de chemin d'entraînement dans peft : elle est chargée déquantifiée en BF16 (donnez --weights bf16, int8, nf4 ou fp32 pour choisir)";
    /// Full ignores weights.
    NoteFullIgnoresWeights =>
        "full fine-tuning keeps the precision recipe's formats; the weight format given is not used",
        "l'entraînement complet garde les formats de sa recette de précision ; le format de poids donné n'est pas utilisé";
    /// Plain data parallel replicates.
    NoteDataParallelReplicates =>
        "plain data parallelism (ZeRO 0) keeps a whole copy of the model and every state on each of the {0} GPUs (the figures are per GPU): ZeRO-1 to 3 or FSDP shard them, or device_map splits the layers",
        "le parallélisme de données simple (ZeRO 0) garde une copie entière du modèle et de chaque état sur chacun des {0} GPU (les chiffres sont par GPU) : ZeRO-1 à 3 ou FSDP les répartissent, ou device_map répartit les couches";
    /// Runtime cannot run on the device.
    AdviceRuntimeNotHere =>
        "{0} does not run on {1}: pick another runtime (MLX or llama.cpp on a Mac; llama.cpp or the CPU runtime on a CPU)",
        "{0} ne tourne pas sur {1} : choisissez un autre runtime (MLX ou llama.cpp sur Mac ; llama.cpp ou le runtime CPU sur CPU)";
    /// Training too big.
    AdviceTrainingTooBig =>
        "every memory-saving setting is already on: this needs more GPUs, or a bigger card",
        "tous les réglages qui économisent la mémoire sont déjà actifs : il faut plus de GPU, ou une carte plus grande";
    /// Remedy: micro-batch 1.
    RemedyBatch =>
        "micro-batch 1 with {0} steps of gradient accumulation (the same tokens per step)",
        "micro-batch de 1 avec {0} pas d'accumulation de gradients (les mêmes tokens par pas)";
    /// Remedy: checkpointing.
    RemedyCheckpointing =>
        "gradient checkpointing",
        "gradient checkpointing";
    /// Remedy: fused loss.
    RemedyFusedLoss =>
        "a fused cross-entropy (Liger, Unsloth, Cut Cross-Entropy)",
        "une entropie croisée fusionnée (Liger, Unsloth, Cut Cross-Entropy)";
    /// Remedy: 8-bit optimizer.
    Remedy8bit =>
        "an 8-bit AdamW (bitsandbytes)",
        "un AdamW 8 bits (bitsandbytes)";
    /// Remedy: LoRA.
    RemedyLora =>
        "LoRA instead of full fine-tuning",
        "LoRA au lieu de l'entraînement complet";
    /// Remedy: QLoRA.
    RemedyQlora =>
        "QLoRA: the frozen base in 4 bits",
        "QLoRA : la base gelée en 4 bits";
    /// Remedy: no k-bit upcast.
    RemedyKbitOff =>
        "unquantized parameters kept in BF16 (as Unsloth and LLaMA-Factory keep them)",
        "paramètres non quantifiés gardés en BF16 (comme Unsloth et LLaMA-Factory)";
    /// Remedy: offloaded checkpoints.
    RemedyOffloadedCheckpoints =>
        "checkpoints offloaded to CPU memory (Unsloth)",
        "points de contrôle déchargés en mémoire CPU (Unsloth)";
    /// Remedy: device_map.
    RemedyDeviceMap =>
        "the layers split over the GPUs (device_map)",
        "les couches réparties sur les GPU (device_map)";
    /// Remedy: ZeRO-3.
    RemedyZero3 =>
        "ZeRO-3 or FSDP: the model and its states sharded over the GPUs",
        "ZeRO-3 ou FSDP : le modèle et ses états répartis sur les GPU";
    /// Remedy: offload optimizer.
    RemedyOffloadOptimizer =>
        "the optimizer's states in CPU memory (ZeRO-Offload)",
        "les états de l'optimiseur en mémoire CPU (ZeRO-Offload)";
    /// Remedy: offload all.
    RemedyOffloadAll =>
        "the parameters in CPU memory too (ZeRO-Infinity, FSDP's CPU offload)",
        "les paramètres en mémoire CPU aussi (ZeRO-Infinity, déchargement CPU de FSDP)";
    /// Smaller micro-batch.
    AdviceTrainSmallerBatch =>
        "a micro-batch of 1 with gradient accumulation keeps the tokens per step",
        "un micro-batch de 1 avec accumulation de gradients garde les tokens par pas";
    /// Checkpointing.
    AdviceTrainCheckpointing =>
        "gradient checkpointing keeps only each layer's input",
        "le gradient checkpointing ne garde que l'entrée de chaque couche";
    /// 8-bit optimizer.
    AdviceTrain8bit =>
        "an 8-bit optimizer (bitsandbytes) stores its states in a quarter of the bytes",
        "un optimiseur 8 bits (bitsandbytes) stocke ses états sur un quart des octets";
    /// LoRA.
    AdviceTrainLora =>
        "LoRA trains adapters over a frozen 16-bit base",
        "LoRA entraîne des adaptateurs sur une base 16 bits gelée";
    /// QLoRA.
    AdviceTrainQlora =>
        "QLoRA keeps the frozen base in 4 bits",
        "QLoRA garde la base gelée en 4 bits";
    /// Shard over the GPUs.
    AdviceTrainShard =>
        "ZeRO-3 or FSDP shards the model and its states over the GPUs instead of copying them to each",
        "ZeRO-3 ou FSDP répartit le modèle et ses états sur les GPU au lieu de les copier sur chacun";
    /// Offload.
    AdviceTrainOffload =>
        "ZeRO-Offload moves the optimizer's states to CPU memory",
        "ZeRO-Offload déplace les états de l'optimiseur en mémoire CPU";
    /// Does not fit.
    AdviceDoesNotFit =>
        "needs {0} per device but only {1} is usable",
        "demande {0} par appareil mais seulement {1} est utilisable";
    /// Too little left for macOS.
    AdviceMacReserve =>
        "leaves macOS only {0} of the Mac's memory, less than the {1} it needs to work: expect swapping and a stalled system; lower the GPU limit or choose a smaller format",
        "ne laisse à macOS que {0} de la mémoire du Mac, moins que les {1} qu'il lui faut : attendez-vous à du swap et à un système figé ; baissez la limite GPU ou choisissez un format plus petit";
    /// Tight fit.
    AdviceTight =>
        "fits with only {0}% to spare: a longer context, more concurrent requests or another process will not fit",
        "tient avec seulement {0} % de marge : un contexte plus long, plus de requêtes simultanées ou un autre processus ne tiendront pas";
    /// Offload.
    /// Experts in RAM.
    AdviceCpuMoe =>
        "runs with the MoE experts of the first {0} of {1} layers in system RAM (llama.cpp --n-cpu-moe {0}); attention and the KV cache stay on the GPU, about {2} tokens/s",
        "tourne avec les experts MoE des {0} premières couches sur {1} en RAM système (llama.cpp --n-cpu-moe {0}) ; l'attention et le cache KV restent sur le GPU, environ {2} tokens/s";
    /// Layers in RAM.
    AdviceOffload =>
        "runs with {0} of {1} layers on the GPU, the output layer first as llama.cpp counts them (-ngl {0}); the rest come from system RAM at about {2} tokens/s",
        "tourne avec {0} couches sur {1} sur le GPU, la couche de sortie d'abord comme llama.cpp les compte (-ngl {0}) ; le reste vient de la RAM système, environ {2} tokens/s";
    /// An Intel iGPU's share.
    NoteApuShareIntel =>
        "the GPU may use {0} of the {1} by default (Windows caps an Intel iGPU's shared memory at half the RAM); Intel Graphics Software's Shared GPU Memory Override raises it (Core Ultra Series 2 and later: 57% by default, up to about 87%), Linux gives more (Level Zero 80%, Vulkan 3/4, ANV_SYS_MEM_LIMIT): give the GPU share yours allows",
        "le GPU peut utiliser {0} des {1} par défaut (Windows limite la mémoire partagée d'un iGPU Intel à la moitié de la RAM) ; le réglage Shared GPU Memory Override d'Intel Graphics Software la relève (Core Ultra série 2 et suivants : 57 % par défaut, jusqu'à environ 87 %), Linux en donne plus (Level Zero 80 %, Vulkan 3/4, ANV_SYS_MEM_LIMIT) : indiquez la part que le vôtre permet";
    /// An AMD APU's default GPU share.
    NoteApuShareAmd =>
        "the GPU may use {0} of the {1} by default (Linux: half the RAM, the kernel's TTM limit); raise ttm.pages_limit (Linux) or the Variable Graphics Memory (Windows, up to 96 of 128 GB) and give the GPU share yours allows",
        "le GPU peut utiliser {0} des {1} par défaut (Linux : la moitié de la RAM, la limite TTM du noyau) ; relevez ttm.pages_limit (Linux) ou la Variable Graphics Memory (Windows, jusqu'à 96 Go sur 128) et indiquez la part que vous donnez au GPU";
    /// DGX Spark's GPU share.
    NoteApuShareSpark =>
        "DGX OS leaves about {0} of the {1} to the GPU (what an idle machine reports available, which CUDA, vLLM and llama.cpp read there); give the GPU share if yours leaves more or less",
        "DGX OS laisse environ {0} des {1} au GPU (ce qu'une machine au repos déclare disponible, que CUDA, vLLM et llama.cpp lisent) ; indiquez la part du GPU si la vôtre en laisse plus ou moins";
    /// transformers' device_map offload.
    AdviceOffloadDeviceMap =>
        "runs with device_map=\"auto\": the first {0} of {1} layers on the GPU, the others copied from system RAM for every token, at about {2} tokens/s",
        "tourne avec device_map=\"auto\" : les {0} premières couches sur {1} sur le GPU, les autres copiées depuis la RAM système à chaque token, environ {2} tokens/s";
    /// CPU machine.
    AdviceCpuMachine =>
        "CPU inference from RAM: about {0} tokens/s, limited by memory bandwidth; fine for a small model or light use, not for many users",
        "inférence CPU depuis la RAM : environ {0} tokens/s, limitée par la bande passante mémoire ; bien pour un petit modèle ou un usage léger, pas pour beaucoup d'utilisateurs";
    /// CPU fallback.
    AdviceCpuFallback =>
        "does not fit {0}'s GPU memory: it can only run on the CPU from system RAM, much more slowly",
        "ne tient pas dans la mémoire GPU de {0} : il ne peut tourner que sur le CPU depuis la RAM système, bien plus lentement";
    /// Small model on CPU.
    AdviceSmallModelCpuOk =>
        "a model this small also runs acceptably on a CPU for one user; the GPU pays off with long prompts or many requests",
        "un modèle aussi petit tourne aussi correctement sur CPU pour un utilisateur ; le GPU devient rentable avec de longs prompts ou beaucoup de requêtes";
    /// An offload to system RAM that the machine's RAM cannot hold.
    AdviceOffloadNeedsRam =>
        "running it partly from system RAM would need {0} of RAM beside the card, and this machine has {1}",
        "le faire tourner en partie depuis la RAM système demanderait {0} de RAM à côté de la carte, et cette machine en a {1}";
    /// An offload whose RAM is not known: said, not checked.
    NoteOffloadRamUnchecked =>
        "the offload needs {0} of system RAM beside the card; give the machine's RAM to check it",
        "le déchargement demande {0} de RAM système à côté de la carte ; indiquez la RAM de la machine pour le vérifier";
    /// Reserve larger than the device.
    AdviceReserveTooLarge =>
        "the reserve for other programs, {0}, is not less than the device's {1}",
        "la réserve pour les autres programmes, {0}, n'est pas inférieure aux {1} de l'appareil";
    /// More tensor-split shares than GPUs.
    NoteTensorSplitExtra =>
        "--tensor-split lists {0} shares for {1} GPU(s): llama.cpp uses the first {1}, one per GPU",
        "--tensor-split donne {0} parts pour {1} GPU : llama.cpp utilise les {1} premières, une par GPU";
    /// One of several different cards runs out.
    AdviceCardRunsOut =>
        "GPU {0} ({1}) would hold {2} of its {3}: give it a smaller share (--tensor-split) or move layers to the CPU (-ngl)",
        "le GPU {0} ({1}) porterait {2} de ses {3} : donnez-lui une plus petite part (--tensor-split) ou passez des couches au CPU (-ngl)";
    /// The device does not state its link between GPUs.
    NoteLinkAssumed =>
        "the device does not state how its {0} GPUs reach each other: PCIe 4.0 ×16 without peer-to-peer is assumed for the exchanges between them",
        "l'appareil ne dit pas comment ses {0} GPU communiquent : PCIe 4.0 ×16 sans pair-à-pair est supposé pour leurs échanges";
    /// No published training run on the device's class set its utilisation.
    NoteMfuUnmeasured =>
        "no published training run on this class of device ({0}) was found to set the utilisation: {1}% is a stand-in, and the time's band is wider ({2}% to {3}% of it)",
        "aucun entraînement publié sur cette classe d'appareil ({0}) ne fixe l'utilisation : {1} % en tient lieu, et la fourchette du temps est plus large ({2} % à {3} % de celle-ci)";
    /// The card with the least room among different ones.
    NoteTightestCard =>
        "of the cards, GPU {0} ({1}) has the least room left: the need and capacity shown are its own",
        "parmi les cartes, le GPU {0} ({1}) a le moins de marge : le besoin et la capacité affichés sont les siens";
    /// Ollama's fit margin.
    NoteOllamaFitMargin =>
        "Ollama lets llama-server place the layers (--fit): it keeps {0} free on every GPU, so a model that fits with less spare moves layers to the CPU",
        "Ollama laisse llama-server placer les couches (--fit) : il garde {0} libres sur chaque GPU, donc un modèle qui tient avec moins de marge déplace des couches vers le CPU";
    /// Reserve in effect.
    NoteReserve =>
        "{0} kept free for the desktop, the OS and other programs",
        "{0} gardés libres pour le bureau, le système et les autres programmes";
    /// bitsandbytes on a Mac.
    AdviceBnbNoMetal =>
        "bitsandbytes (QLoRA, NF4) needs an NVIDIA or AMD GPU, not {0}'s Metal: on a Mac the nearest is LoRA on an MLX 4-bit model (mlx_lm.lora), or a GGUF with llama.cpp for inference",
        "bitsandbytes (QLoRA, NF4) demande un GPU NVIDIA ou AMD, pas le Metal de {0} : sur un Mac, le plus proche est LoRA sur un modèle MLX 4 bits (mlx_lm.lora), ou un GGUF avec llama.cpp pour l'inférence";
    /// bitsandbytes without a GPU.
    AdviceBnbNeedsGpu =>
        "bitsandbytes' QLoRA kernels need an NVIDIA or AMD GPU, which {0} does not have",
        "les noyaux QLoRA de bitsandbytes demandent un GPU NVIDIA ou AMD, que {0} n'a pas";
    /// No BF16.
    AdviceNoBf16 =>
        "{0} has no BF16 (compute capability {1}; BF16 needs 8.0, Ampere, or later): vLLM refuses it and the Trainer's bf16 fails; run in FP16 (--weights fp16, vLLM --dtype half; training fp16 mixed precision)",
        "{0} n'a pas de BF16 (capacité de calcul {1} ; le BF16 demande 8.0, Ampere, ou plus) : vLLM le refuse et le bf16 du Trainer échoue ; passez en FP16 (--weights fp16, vLLM --dtype half ; entraînement en précision mixte fp16)";
    /// llama.cpp's converter has no class for the checkpoint.
    AdviceLlamaCppNoConverter =>
        "llama.cpp cannot load this model: its converter (convert_hf_to_gguf.py, llama.cpp {1}) has no class for `{0}`, so no GGUF of it exists; the numbers are what it would take if one did. Choose vLLM, SGLang or transformers",
        "llama.cpp ne peut pas charger ce modèle : son convertisseur (convert_hf_to_gguf.py, llama.cpp {1}) n'a pas de classe pour `{0}`, aucun GGUF n'en existe donc ; les chiffres sont ce qu'il faudrait s'il en existait un. Choisissez vLLM, SGLang ou transformers";
    /// Neither llama.cpp's nor Ollama's converter has the checkpoint's class.
    AdviceOllamaNoConverter =>
        "Ollama cannot load this model: neither llama.cpp's converter ({1}) nor Ollama's own ({2}) has a class for `{0}`; the numbers are what it would take if one did. Choose vLLM, SGLang or transformers",
        "Ollama ne peut pas charger ce modèle : ni le convertisseur de llama.cpp ({1}) ni celui d'Ollama ({2}) n'a de classe pour `{0}` ; les chiffres sont ce qu'il faudrait si l'un d'eux en avait une. Choisissez vLLM, SGLang ou transformers";
    /// vLLM dropped the checkpoint's class.
    AdviceVllmDropped =>
        "vLLM {2} refuses `{0}`: it ran that class until v{1} and dropped it (its registry's _PREVIOUSLY_SUPPORTED_MODELS); pin vllm=={1} (--vllm-version {1}) or choose another runtime",
        "vLLM {2} refuse `{0}` : il a fait tourner cette classe jusqu'à la v{1} puis l'a retirée (_PREVIOUSLY_SUPPORTED_MODELS de son registre) ; fixez vllm=={1} (--vllm-version {1}) ou choisissez un autre runtime";
    /// mlx-lm has no model for the checkpoint's type.
    AdviceMlxNoModel =>
        "mlx-lm {1} cannot load this model: it has no model for model_type `{0}` (mlx_lm.models); the numbers are what it would take if it had one. Choose llama.cpp if it converts the model",
        "mlx-lm {1} ne peut pas charger ce modèle : il n'a pas de modèle pour le model_type `{0}` (mlx_lm.models) ; les chiffres sont ce qu'il faudrait s'il en avait un. Choisissez llama.cpp s'il convertit le modèle";
    /// transformers has no class for the checkpoint's type and the config brings no code.
    AdviceTransformersNoModel =>
        "transformers {1} cannot load this model: its auto classes have no model for model_type `{0}` and the config brings no code of its own (no auto_map); the numbers are what it would take if it had one. Choose a runtime that implements the model",
        "transformers {1} ne peut pas charger ce modèle : ses classes auto n'ont pas de modèle pour le model_type `{0}` et la config n'apporte pas de code (pas d'auto_map) ; les chiffres sont ce qu'il faudrait s'il en avait un. Choisissez un runtime qui implémente le modèle";
    /// Neither the runtime nor its Transformers backend has the checkpoint.
    AdviceBackendNoModel =>
        "{1} {2} cannot load this model: `{0}` is not among the models it implements, and its Transformers backend has none either (transformers {4} has no model for model_type `{3}`, and the config brings no code); the numbers are what it would take if it had one. Choose a runtime that implements the model",
        "{1} {2} ne peut pas charger ce modèle : `{0}` ne fait pas partie des modèles qu'il implémente, et son backend Transformers n'en a pas non plus (transformers {4} n'a pas de modèle pour le model_type `{3}`, et la config n'apporte pas de code) ; les chiffres sont ce qu'il faudrait s'il en avait un. Choisissez un runtime qui implémente le modèle";
    /// The config names no `architectures` class.
    WarnNoArchitectures =>
        "this config names no `architectures` class, by which {0} picks its implementation: it stops at start until given one (--hf-overrides '{\"architectures\": [...]}' naming the class of the model's code)",
        "cette config ne nomme aucune classe `architectures`, ce par quoi {0} choisit son implémentation : il s'arrête au démarrage tant qu'on ne lui en donne pas une (--hf-overrides '{\"architectures\": [...]}' nommant la classe du code du modèle)";
    /// The class is not in a runtime's own list: only its Transformers backend could run it.
    WarnNotInRegistry =>
        "`{0}` is not among the models {1} {2} implements: it would go to {1}'s Transformers backend, which runs only classes transformers itself has (or the checkpoint's remote code); the load may fail",
        "`{0}` ne fait pas partie des modèles qu'implémente {1} {2} : il passerait par le backend Transformers de {1}, qui ne fait tourner que les classes de transformers (ou le code distant du checkpoint) ; le chargement peut échouer";
    /// The class is not in a runtime's list, but the runtime reads the model type with its own config.
    WarnOwnConfig =>
        "`{0}` is not among the classes {1} {2} lists, but {1} reads model_type `{3}` with a config class of its own, which may map it to a class it implements; the load may still fail",
        "`{0}` ne fait pas partie des classes que liste {1} {2}, mais {1} lit le model_type `{3}` avec sa propre classe de config, qui peut la ramener à une classe qu'il implémente ; le chargement peut encore échouer";
    /// No FP8/FP4 kernels.
    AdviceNoLowBitKernels =>
        "{0} (compute capability {1}) has no kernels for {2} weights (vLLM's need 8.0, Ampere, or later): use a GPTQ/AWQ or BF16/FP16 checkpoint, or a GGUF with llama.cpp",
        "{0} (capacité de calcul {1}) n'a pas de noyaux pour des poids {2} (ceux de vLLM demandent 8.0, Ampere, ou plus) : prenez un checkpoint GPTQ/AWQ ou BF16/FP16, ou un GGUF avec llama.cpp";
    /// Weight-only FP8/FP4.
    NoteWeightOnlyLowBit =>
        "{0} has no {1} tensor cores: vLLM runs these weights weight-only (Marlin), dequantized to 16-bit in each matrix product; memory as shown, compute at the 16-bit rate",
        "{0} n'a pas de cœurs tensoriels {1} : vLLM exécute ces poids en poids seuls (Marlin), déquantifiés en 16 bits à chaque produit ; mémoire comme indiqué, calcul au débit 16 bits";
    /// A paged optimizer's states spilling to CPU memory.
    AdvicePagedSpill =>
        "the paged optimizer's states do not all fit on the card: about {0} of their {1} are paged out to CPU memory (bitsandbytes keeps them in unified memory and moves pages as each step needs them), so the run goes on, slower by those transfers",
        "les états de l'optimiseur paginé ne tiennent pas tous sur la carte : environ {0} de leurs {1} sont paginés en mémoire CPU (bitsandbytes les garde en mémoire unifiée et déplace les pages selon les besoins de chaque pas), donc l'entraînement continue, ralenti par ces transferts";
    /// vLLM: no room left outside its share.
    AdviceVllmNoRoomOutside =>
        "--gpu-memory-utilization {0} leaves too little of the card for the CUDA context: vLLM stops at start (\"Free memory on device … is less than desired GPU memory utilization\")",
        "--gpu-memory-utilization {0} laisse trop peu de la carte au contexte CUDA : vLLM s'arrête au démarrage (« Free memory on device … is less than desired GPU memory utilization »)";
    /// vLLM: a model it builds for one GPU only, on more.
    AdviceVllmOneGpu =>
        "vLLM builds this model (Dory) for one GPU only (tensor_parallel_size=1) and refuses {0} or more: choose one GPU, or transformers",
        "vLLM construit ce modèle (Dory) pour un seul GPU (tensor_parallel_size=1) et refuse {0} ou plus : choisissez un GPU, ou transformers";
    /// vLLM: attention heads that tensor parallelism cannot divide.
    AdviceVllmTpHeads =>
        "vLLM refuses tensor parallelism over {1} GPUs: the {0} attention heads do not divide among them (\"Total number of attention heads must be divisible by tensor parallel size\"); choose a count that divides {0}",
        "vLLM refuse le parallélisme de tenseurs sur {1} GPU : les {0} têtes d'attention ne s'y répartissent pas (« Total number of attention heads must be divisible by tensor parallel size ») ; choisissez un nombre qui divise {0}";
    /// vLLM: key/value heads that tensor parallelism can neither divide nor copy evenly.
    AdviceVllmTpKvHeads =>
        "vLLM refuses tensor parallelism over {1} GPUs: its attention layers divide the {0} key/value heads among them, or copy them to each GPU when there are fewer, so one count must divide the other; choose a count that divides {0} or a multiple of it",
        "vLLM refuse le parallélisme de tenseurs sur {1} GPU : ses couches d'attention s'y répartissent les {0} têtes clé/valeur, ou les copient sur chaque GPU quand elles sont moins nombreuses, donc l'un des nombres doit diviser l'autre ; choisissez un nombre qui divise {0} ou un multiple de {0}";
    /// vLLM: key/value heads that a model's attention divides and never copies.
    AdviceVllmTpKvHeadsSplit =>
        "vLLM refuses tensor parallelism over {1} GPUs: this model's attention divides its {0} key/value heads among them and never copies them; choose a count that divides {0}",
        "vLLM refuse le parallélisme de tenseurs sur {1} GPU : l'attention de ce modèle s'y répartit ses {0} têtes clé/valeur sans jamais les copier ; choisissez un nombre qui divise {0}";
    /// vLLM: a cache block too small for Step 5's rings of indexer keys, or not whole regions.
    AdviceVllmStep5Block =>
        "vLLM stops once the weights are loaded: Step 5's caches need a block of whole eight-token regions whose key/value page on one GPU holds {1} rows of 1,024 bytes (its ring of indexer keys), and --block-size {0} gives no such page; use --block-size {2}, or leave it unset",
        "vLLM s'arrête une fois les poids chargés : les caches de Step 5 veulent un bloc de régions entières de huit jetons dont la page clé/valeur sur un GPU contient {1} lignes de 1 024 octets (son anneau de clés d'indexeur), et --block-size {0} ne donne pas une telle page ; utilisez --block-size {2}, ou ne le fixez pas";
    /// vLLM: a cache block none of its sparse latent-attention kernels takes on this GPU.
    AdviceVllmSparseMlaBlock =>
        "vLLM stops before loading the model: its kernels for this model's sparse latent attention take blocks of a multiple of {1} tokens on this GPU, and --block-size {0} is not one (\"No valid attention backend found\"); use --block-size {2}, or leave it unset",
        "vLLM s'arrête avant de charger le modèle : ses noyaux pour l'attention latente creuse de ce modèle veulent des blocs d'un multiple de {1} jetons sur ce GPU, et --block-size {0} n'en est pas un (« No valid attention backend found ») ; utilisez --block-size {2}, ou ne le fixez pas";
    /// vLLM: a cache block none of its attention kernels on NVIDIA GPUs takes.
    AdviceVllmKernelBlock =>
        "vLLM stops before loading the model: its attention kernels on NVIDIA GPUs take blocks of a multiple of 16 tokens, and --block-size {0} is not one (\"No valid attention backend found\"); use --block-size {1}, or leave it unset",
        "vLLM s'arrête avant de charger le modèle : ses noyaux d'attention sur les GPU NVIDIA veulent des blocs d'un multiple de 16 jetons, et --block-size {0} n'en est pas un (« No valid attention backend found ») ; utilisez --block-size {1}, ou ne le fixez pas";
    /// vLLM: decode context parallelism over ranks that do not divide the tensor-parallel group.
    AdviceVllmDcpTp =>
        "vLLM stops before loading the model: decode context parallelism splits the cache over ranks of the tensor-parallel group, and --decode-context-parallel-size {0} does not divide --tensor-parallel-size {1}; choose a size that divides {1}",
        "vLLM s'arrête avant de charger le modèle : le parallélisme de contexte au décodage répartit le cache sur des rangs du groupe de parallélisme de tenseurs, et --decode-context-parallel-size {0} ne divise pas --tensor-parallel-size {1} ; choisissez une taille qui divise {1}";
    /// vLLM: decode context parallelism for grouped-query attention without copies of the heads.
    AdviceVllmDcpKvHeads =>
        "vLLM stops before loading the model: for grouped-query attention, decode context parallelism uses the GPUs that would otherwise hold copies of the same key/value head, and over {1} GPUs none of the {0} key/value heads has a copy; use more than {0} GPUs, or leave --decode-context-parallel-size at 1",
        "vLLM s'arrête avant de charger le modèle : pour l'attention à requêtes groupées, le parallélisme de contexte au décodage utilise les GPU qui garderaient sinon des copies d'une même tête clé/valeur, et sur {1} GPU aucune des {0} têtes clé/valeur n'a de copie ; utilisez plus de {0} GPU, ou laissez --decode-context-parallel-size à 1";
    /// vLLM: decode context parallelism over more ranks than copies of a key/value head, or not
    /// dividing the query heads a key/value head serves.
    AdviceVllmDcpSize =>
        "vLLM stops before loading the model: over {1} GPUs each of the {0} key/value heads is held by {2} of them, and decode context parallelism must span at most those {2} and divide the {3} query heads each key/value head serves; --decode-context-parallel-size {4} does not, use {5}",
        "vLLM s'arrête avant de charger le modèle : sur {1} GPU chacune des {0} têtes clé/valeur est gardée par {2} d'entre eux, et le parallélisme de contexte au décodage doit en couvrir au plus {2} et diviser les {3} têtes de requête que sert chaque tête clé/valeur ; --decode-context-parallel-size {4} ne le fait pas, utilisez {5}";
    /// vLLM: decode context parallelism with sliding-window layers.
    AdviceVllmDcpSliding =>
        "vLLM stops once the weights are loaded: its sliding-window caches cannot be split by decode context parallelism (\"DCP not support sliding window\"); leave --decode-context-parallel-size at 1 for this model",
        "vLLM s'arrête une fois les poids chargés : ses caches à fenêtre glissante ne peuvent pas être répartis par le parallélisme de contexte au décodage (« DCP not support sliding window ») ; laissez --decode-context-parallel-size à 1 pour ce modèle";
    /// vLLM: the extensible KV cache asked for beside a fixed cache size.
    AdviceVllmExtensibleKvMemory =>
        "vLLM stops before loading the model: --enable-extensible-kv-cache sizes the KV cache from the memory it measures, which --kv-cache-memory-bytes overrides; drop one of the two",
        "vLLM s'arrête avant de charger le modèle : --enable-extensible-kv-cache dimensionne le cache KV selon la mémoire qu'il mesure, ce que --kv-cache-memory-bytes remplace ; retirez l'un des deux";
    /// vLLM: the extensible KV cache's flags on a release without them.
    AdviceVllmExtensibleOld =>
        "vLLM {0} has no extensible KV cache (it came with 0.34): its argument parser stops on --enable-extensible-kv-cache or --no-enable-extensible-kv-cache; drop the flag",
        "vLLM {0} n'a pas de cache KV extensible (il est arrivé avec la 0.34) : son analyseur d'arguments s'arrête sur --enable-extensible-kv-cache ou --no-enable-extensible-kv-cache ; retirez l'option";
    /// vLLM: a block-diffusion model's canvas state does not fit beside its share.
    AdviceVllmDiffusionState =>
        "vLLM does not count this block-diffusion model's canvas state ({0} for --max-num-seqs {1}) in its budget: with the CUDA context it needs more than --gpu-memory-utilization {2} leaves of the card, so the first full batch runs out of memory; lower --max-num-seqs (its recipe: 4) or --gpu-memory-utilization",
        "vLLM ne compte pas l'état de canevas de ce modèle à diffusion par blocs ({0} pour --max-num-seqs {1}) dans son budget : avec le contexte CUDA, il lui faut plus que ce que --gpu-memory-utilization {2} laisse de la carte, donc le premier lot complet manque de mémoire ; baissez --max-num-seqs (sa recette : 4) ou --gpu-memory-utilization";
    /// vLLM: nothing left for the cache.
    AdviceVllmNoCacheMemory =>
        "vLLM stops at start, \"No available memory for the cache blocks\": its share is {0} short; raise --gpu-memory-utilization, lower --max-num-seqs (a smaller sampler peak), quantize the weights or add GPUs (--tensor-parallel-size)",
        "vLLM s'arrête au démarrage, « No available memory for the cache blocks » : il manque {0} à sa part ; augmentez --gpu-memory-utilization, baissez --max-num-seqs (un pic d'échantillonnage plus petit), quantifiez les poids ou ajoutez des GPU (--tensor-parallel-size)";
    /// vLLM: max_model_len too long.
    AdviceVllmTooLong =>
        "vLLM refuses --max-model-len {0}: its KV cache holds {1} tokens, and the longest request it can serve is {2} tokens",
        "vLLM refuse --max-model-len {0} : son cache KV contient {1} tokens et la plus longue requête qu'il puisse servir fait {2} tokens";
    /// vLLM: fewer requests at once than asked.
    AdviceVllmQueue =>
        "vLLM starts, but its cache holds {0} requests of {1} tokens at once, not {2}: the others wait in the queue",
        "vLLM démarre, mais son cache contient {0} requêtes de {1} tokens à la fois, pas {2} : les autres attendent";
    /// SGLang: nothing left for the pool.
    AdviceSglangNoPool =>
        "SGLang stops at start, \"Not enough memory. Please try to increase --mem-fraction-static\": its pool is {0} short; raise --mem-fraction-static, quantize the weights or add GPUs (--tp)",
        "SGLang s'arrête au démarrage, « Not enough memory. Please try to increase --mem-fraction-static » : il manque {0} à son pool ; augmentez --mem-fraction-static, quantifiez les poids ou ajoutez des GPU (--tp)";
    /// SGLang: the pool is too small for the batch.
    AdviceSglangPool =>
        "SGLang's KV pool holds {0} tokens: {1} requests of {2} tokens at once, fewer than asked; the others wait",
        "le pool KV de SGLang contient {0} tokens : {1} requêtes de {2} tokens à la fois, moins que demandé ; les autres attendent";
    /// vLLM 0.34: a utilisation below 1 keeps free memory out of the extensible cache.
    AdviceVllmUtilizationCaps =>
        "--gpu-memory-utilization {0} keeps {1} of free memory out of the KV cache: vLLM measures its own use after warmup, so leave it unset unless other processes share the GPU",
        "--gpu-memory-utilization {0} garde {1} de mémoire libre hors du cache KV : vLLM mesure son propre usage après le préchauffage, laissez-la donc non fixée sauf si d'autres processus partagent le GPU";
    /// vLLM 0.34 sizes its extensible KV cache after warmup.
    AdviceVllmMeasures =>
        "vLLM sizes its KV cache once warmed up: of the {0} it can use, what the weights, CUDA graphs and its other buffers hold, a margin of {1} and {2} for activations stay out, and the cache takes the rest ({3})",
        "vLLM dimensionne son cache KV une fois préchauffé : des {0} qu'il peut utiliser, ce que gardent les poids, les graphes CUDA et ses autres tampons, une marge de {1} et {2} pour les activations restent à part, et le cache prend le reste ({3})";
    /// vLLM preallocates.
    AdviceVllmPreallocates =>
        "vLLM claims {0} ({1}% of the GPU) at start and gives what the weights and its profile step leave to the KV cache",
        "vLLM réserve {0} ({1} % du GPU) au démarrage et donne au cache KV ce que les poids et sa passe de profilage laissent";
    /// An inferred family widens the band.
    WarnInferredBand =>
        "the shape was inferred from the config's keys, not read by a family reader: weights are shown −15 % … +25 %, KV cache and state ×0.5 … ×2; give the safetensors headers or a GGUF for exact weights",
        "la forme est déduite des clés de la config, pas lue par un lecteur de famille : poids affichés −15 % … +25 %, cache KV et état ×0,5 … ×2 ; donnez les en-têtes safetensors ou un GGUF pour des poids exacts";
    /// A stand-in shape.
    WarnStandIn =>
        "only a parameter count is known: the KV cache and activations use the shape of {0}, with a wide band",
        "seul le nombre de paramètres est connu : le cache KV et les activations prennent la forme de {0}, avec une large marge";
    /// The widened band of an inferred family.
    AssumeInferredFamily =>
        "band widened: the architecture was inferred, not read by a known family's rules",
        "marge élargie : l'architecture est déduite, pas lue par les règles d'une famille connue";
    /// Unknown family notice.
    NoticeUnknownFamily =>
        "model_type `{0}` is not one Headroom knows: read as a Llama-style decoder (gated MLP, RMSNorm, biases only where the config says); check the parameter count against the model card",
        "model_type `{0}` n'est pas connu de Headroom : lu comme un décodeur de type Llama (MLP à porte, RMSNorm, biais seulement si la config le dit) ; vérifiez le nombre de paramètres sur la fiche du modèle";
    /// An unknown model_type read by the family of the class it names, as vLLM dispatches.
    NoticeFamilyByArchitecture =>
        "model_type `{0}` is not one Headroom knows: read as its `architectures` class {1} (the class vLLM loads), with that family's keys",
        "model_type `{0}` n'est pas connu de Headroom : lu selon sa classe `architectures` {1} (celle que vLLM charge), avec les clés de cette famille";
    /// Multimodal checkpoint: only the language model is counted.
    NoticeEncoderNotCounted =>
        "this checkpoint also holds a {0} encoder that Headroom does not count: the weights are the language model's (and any other encoder's) only; such an encoder usually adds 0.1–1 B parameters and little KV",
        "ce point de contrôle contient aussi un encodeur {0} que Headroom ne compte pas : les poids sont ceux du modèle de langue (et des autres encodeurs) seulement ; un tel encodeur ajoute en général 0,1 à 1 Md de paramètres et peu de KV";
    /// vLLM: a block-diffusion model's per-request state, outside its budget.
    AssumeDiffusionState =>
        "with the canvas state of {1} requests, {0}, which vLLM allocates after the weights and counts in no budget line",
        "avec l'état de canevas de {1} requêtes, {0}, que vLLM alloue après les poids et ne compte dans aucune ligne de son budget";
    /// A block-diffusion model (DiffusionGemma): memory as its backbone's, speed not.
    NoticeBlockDiffusion =>
        "a block-diffusion model: it writes the cache causally as its Gemma 4 backbone does, then denoises a canvas of {0} tokens over several steps with the same weights (and a self-conditioning MLP, counted). The weights and the cache hold; the decode speed shown is an autoregressive one (vLLM's recipe reports about 1.9× its throughput), and vLLM runs every decoding sequence's {0} canvas tokens each step with per-sequence canvas state beside the cache — its recipe sets --max-num-seqs 4 on an 80 GB GPU",
        "un modèle à diffusion par blocs : il écrit le cache de façon causale comme son socle Gemma 4, puis débruite un canevas de {0} jetons en plusieurs étapes avec les mêmes poids (et un MLP d'auto-conditionnement, compté). Les poids et le cache tiennent ; la vitesse de décodage affichée est celle d'un modèle autorégressif (la recette de vLLM annonce environ 1,9 fois son débit), et vLLM traite à chaque étape les {0} jetons du canevas de chaque séquence en décodage, avec un état de canevas par séquence à côté du cache — sa recette fixe --max-num-seqs 4 sur un GPU de 80 Go";
    /// A speech-output stack (Qwen3-Omni's talker and code2wav) is not counted.
    NoticeSpeechOutputNotCounted =>
        "this checkpoint also holds a speech-output stack ({0}) that Headroom does not count: vLLM serves the thinker only and does not load it, but transformers builds it (enable_audio_output is true), so under transformers its weights come on top of these",
        "ce point de contrôle contient aussi une pile de sortie vocale ({0}) que Headroom ne compte pas : vLLM ne sert que le thinker et ne la charge pas, mais transformers la construit (enable_audio_output vaut true) ; sous transformers, ses poids s'ajoutent à ceux-ci";
    /// A speech-output stack (Qwen3-Omni's talker and code2wav) counted under transformers only.
    NoticeSpeechOutputCounted =>
        "this checkpoint also holds a speech-output stack ({0}, {1} parameters): transformers builds it (enable_audio_output is true), so the weights under transformers include it; vLLM and SGLang serve the thinker only and do not load it; the download includes it",
        "ce point de contrôle contient aussi une pile de sortie vocale ({0}, {1} paramètres) : transformers la construit (enable_audio_output vaut true), donc les poids sous transformers l'incluent ; vLLM et SGLang ne servent que le thinker et ne la chargent pas ; le téléchargement l'inclut";
    /// The speech-output stack's line in the encoders term (transformers only).
    EncodersTermSpeech =>
        "{0}: {1} parameters ({2} talker, {3} vocoder), {4} bytes each, loaded by transformers beside the thinker",
        "{0} : {1} paramètres ({2} talker, {3} vocodeur), {4} octets chacun, chargés par transformers avec le thinker";
    /// Unknown family with a sliding window.
    NoticeSlidingAllLayers =>
        "sliding_window is set: all {0} layers are taken to attend within the window",
        "sliding_window est défini : les {0} couches sont supposées utiliser la fenêtre";
    /// Unknown quantization.
    NoticeUnknownQuant =>
        "quantization_config `{0}` is not understood; sizes use torch_dtype instead",
        "quantization_config `{0}` n'est pas compris ; les tailles utilisent torch_dtype à la place";
    /// Some entries of a quantization rule match nothing.
    NoticeQuantEntriesUnmatched =>
        "{0} (`{1}`, and {2} entries in all) names no module of this model as Headroom names them: what they put in {3} may be priced in the checkpoint's base format instead, with a wider band",
        "{0} (`{1}`, et {2} entrées en tout) ne désigne aucun module de ce modèle tel que Headroom les nomme : ce qu'elles mettent en {3} est peut-être compté dans le format de base du point de contrôle, avec une marge plus large";
    /// A quantization rule that decides no tensor.
    NoticeQuantUnmatched =>
        "{0} (`{1}`) names none of this model's modules as Headroom names them: what it puts in {2} may be priced in the checkpoint's base format instead, with a wider band",
        "{0} (`{1}`) ne désigne aucun module de ce modèle tel que Headroom les nomme : ce qu'il met en {2} est peut-être compté dans le format de base du point de contrôle, avec une marge plus large";
    /// A quantization_config that could not be read.
    NoticeQuantInvalid =>
        "quantization_config ({0}): {1}; the weights are priced as {2} everywhere, with a wider band",
        "quantization_config ({0}) : {1} ; les poids sont comptés en {2} partout, avec une marge plus large";
    /// A quantization method whose stored layout is approximated.
    NoticeQuantApprox =>
        "the {0} checkpoint's stored scales and zero points are approximated (a few percent): give its safetensors headers for the exact bytes",
        "les échelles et zéros stockés du point de contrôle {0} sont approchés (quelques pour cent) : donnez ses en-têtes safetensors pour les octets exacts";
    /// KV-cache scales in the checkpoint.
    NoticeKvScales =>
        "the checkpoint carries FP8 KV-cache scales: vLLM uses them with --kv-cache-dtype fp8 (the cache stays at the model's dtype otherwise)",
        "le point de contrôle contient des échelles de cache KV en FP8 : vLLM les utilise avec --kv-cache-dtype fp8 (sinon le cache reste au type du modèle)";
    /// SGLang's dynamic share too small.
    NoteSglangDynamicShort =>
        "a chunk of prefill needs about {0}, more than the {1} SGLang leaves beside its pool: lower --mem-fraction-static or --chunked-prefill-size, or it may run out of memory on long prompts",
        "un morceau de préremplissage demande environ {0}, plus que les {1} que SGLang laisse à côté de son pool : baissez --mem-fraction-static ou --chunked-prefill-size, sinon il risque de manquer de mémoire sur les longs prompts";
    /// vLLM's speculative drafter.
    DraftVllm =>
        "speculative drafter {0}: weights {1} and {2} KV layers in vLLM's cache, {3} for the requests",
        "brouillon spéculatif {0} : poids {1} et {2} couches KV dans le cache de vLLM, {3} pour les requêtes";
    /// vLLM's drafter whose layers keep windows in the target's pool (DSpark).
    DraftVllmWindows =>
        "speculative drafter {0}: weights {1}, and {2} window-only layers whose windows join the target's blocks in vLLM's pool (its KV cache)",
        "brouillon spéculatif {0} : poids {1}, et {2} couches à fenêtre seule dont les fenêtres rejoignent les blocs de la cible dans le pool de vLLM (son cache KV)";
    /// vLLM's pipeline stages.
    NoteVllmPipeline =>
        "--pipeline-parallel-size {0}: layers {1} per stage (vLLM's split), {2} GPUs in all; each stage sizes its own cache and all take the fewest blocks; the busiest stage is shown",
        "--pipeline-parallel-size {0} : couches {1} par étage (découpage de vLLM), {2} GPU en tout ; chaque étage dimensionne son cache et tous prennent le moins de blocs ; l'étage le plus chargé est montré";
    /// vLLM's MXFP4 expert layout.
    NoteVllmMxfp4Layout =>
        "vLLM's {0} MXFP4 kernels store each expert padded to {1} × {2} (hidden × intermediate per GPU), with FP32 or BF16 biases as they take them: {3} more than the checkpoint",
        "les noyaux MXFP4 {0} de vLLM stockent chaque expert complété à {1} × {2} (cachée × intermédiaire par GPU), biais en FP32 ou BF16 selon eux : {3} de plus que le checkpoint";
    /// vLLM keeps DeepSeek V4.1's Engram tables in pinned host memory.
    NoteVllmEngramPinned =>
        "vLLM keeps the n-gram tables ({0}) in pinned CPU memory, read by the GPUs over UVA (EngramConfig cpu_offload, on by default), not in GPU memory: {1} of system RAM over the node's {2} tensor-parallel shards, PyTorch's pinned allocator rounding each shard's allocations up to a power of two",
        "vLLM garde les tables n-grammes ({0}) en mémoire CPU verrouillée, lue par les GPU via UVA (EngramConfig cpu_offload, actif par défaut), pas en mémoire GPU : {1} de RAM système pour les {2} parts du parallélisme de tenseurs du nœud, l'allocateur verrouillé de PyTorch arrondissant les allocations de chaque part à une puissance de deux";
    /// The same, shared by data-parallel replicas.
    NoteVllmEngramShared =>
        "vLLM keeps the n-gram tables ({0}) in CPU memory the node's data-parallel replicas share (EngramConfig dp_shared_memory, on with several replicas), not in GPU memory: {1} of system RAM, one copy",
        "vLLM garde les tables n-grammes ({0}) en mémoire CPU partagée par les répliques data-parallèles du nœud (EngramConfig dp_shared_memory, actif avec plusieurs répliques), pas en mémoire GPU : {1} de RAM système, une copie";
    /// transformers dequantizes the experts on load.
    NoteTransformersDequantExperts =>
        "transformers dequantizes this model's routed experts to 16 bits on load, whatever the checkpoint stores: {0} more in memory than the files",
        "transformers déquantifie les experts routés de ce modèle en 16 bits au chargement, quel que soit le format du checkpoint : {0} de plus en mémoire que les fichiers";
    /// A cloud instance with fewer accelerators than the scenario spans.
    AdviceInstanceTooFewGpus =>
        "{0} has {1} GPU(s) and the scenario spans {2}: rent an instance with {2} or more, or lower the GPU count",
        "{0} a {1} GPU et le scénario en utilise {2} : louez une instance qui en a {2} ou plus, ou baissez le nombre de GPU";
    /// vLLM builds the model's attention kernels for other GPUs only.
    AdviceVllmKernelsMissing =>
        "vLLM cannot run this model on {0}: it builds {1} for {2} only",
        "vLLM ne peut pas faire tourner ce modèle sur {0} : il ne construit {1} que pour {2}";
    /// vLLM's FP32 routers.
    NoteVllmFp32Router =>
        "vLLM builds this model's expert routers in FP32 whatever the checkpoint stores: {0} more on each GPU than the files",
        "vLLM construit les routeurs d'experts de ce modèle en FP32 quel que soit le format du checkpoint : {0} de plus par GPU que les fichiers";
    /// vLLM's MXFP8 scales for DeepSeek V4.1.
    NoteVllmMxfp8Scales =>
        "vLLM loads the checkpoint's 32×32-block FP8 matrices as MXFP8, a scale byte per 32 values of each row rather than per block: {0} more on each GPU than the files",
        "vLLM charge les matrices FP8 en blocs 32×32 du checkpoint en MXFP8, un octet d'échelle par 32 valeurs de chaque ligne plutôt que par bloc : {0} de plus par GPU que les fichiers";
    /// vLLM's CPU offload.
    NoteVllmCpuOffload =>
        "--cpu-offload-gb keeps {0} of each GPU's weights in CPU memory, streamed in at every step (slower)",
        "--cpu-offload-gb garde {0} des poids de chaque GPU en mémoire CPU, rapatriés à chaque pas (plus lent)";
    /// CPU runtime ignores GPUs.
    NoteCpuIgnoresGpus =>
        "the CPU runtime uses no GPU: the GPU count is ignored",
        "le runtime CPU n'utilise pas de GPU : le nombre de GPU est ignoré";
    /// Beyond trained context.
    NoteBeyondTrainedContext =>
        "{0} tokens is beyond the {1} the model was trained for: quality degrades unless rope scaling is configured",
        "{0} tokens dépasse les {1} pour lesquels le modèle a été entraîné : la qualité se dégrade sans mise à l'échelle RoPE";
    /// MoE all resident.
    NoteMoeAllResident =>
        "mixture of experts: every expert stays in memory (total parameters); speed follows the active parameters",
        "mélange d'experts : tous les experts restent en mémoire (paramètres totaux) ; la vitesse suit les paramètres actifs";
    /// GGUF with a non-llama.cpp runtime.
    NoteGgufRuntime =>
        "GGUF files are meant for llama.cpp or Ollama; {0} reads them only experimentally or not at all",
        "les fichiers GGUF sont faits pour llama.cpp ou Ollama ; {0} ne les lit qu'à titre expérimental ou pas du tout";
    /// llama.cpp keeps NVFP4 as its own type.
    NoteLlamaCppNvfp4 =>
        "{0} runs GGUF files: its converter (convert_hf_to_gguf.py) repacks the checkpoint's NVFP4 tensors into llama.cpp's own NVFP4 type, the same 4.5 bits a weight (an E4M3 scale per 16)",
        "{0} exécute des fichiers GGUF : son convertisseur (convert_hf_to_gguf.py) réempaquette les tenseurs NVFP4 du checkpoint dans le type NVFP4 de llama.cpp, les mêmes 4,5 bits par poids (une échelle E4M3 pour 16)";
    /// llama.cpp needs GGUF.
    NoteNeedsGguf =>
        "{0} runs GGUF files and has no {1} weights: these numbers price {1} as if it had. Its converter (convert_hf_to_gguf.py) reads a float, FP8, GPTQ or NVFP4 checkpoint (not AWQ or bitsandbytes) and llama-quantize makes the GGUF type you choose: pick one (--weights q8_0, q4_k_m …) for llama.cpp's own numbers and command",
        "{0} exécute des fichiers GGUF et n'a pas de poids {1} : ces chiffres comptent du {1} comme s'il en avait. Son convertisseur (convert_hf_to_gguf.py) lit un checkpoint flottant, FP8, GPTQ ou NVFP4 (pas AWQ ni bitsandbytes) et llama-quantize produit le type GGUF choisi : choisissez-en un (--weights q8_0, q4_k_m …) pour les chiffres et la commande de llama.cpp";
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn numbers_follow_the_language() {
        assert_eq!(format_int(8_030_261_248, Lang::En), "8,030,261,248");
        assert_eq!(format_int(8_030_261_248, Lang::Fr), "8\u{202f}030\u{202f}261\u{202f}248");
        assert_eq!(format_int(12, Lang::En), "12");
        assert_eq!(format_num(2.5, 1, Lang::Fr), "2,5");
        assert_eq!(format_size(Bytes::new(14_000_000_000), Lang::En), "14.00 GB (13.04 GiB)");
    }

    #[test]
    fn templates_substitute_arguments() {
        let m = Msg::new(
            MsgId::WeightsFlat,
            vec![Arg::Int(7_000_000_000), Arg::Num(2.0, 1), Arg::Text("FP16".into())],
        );
        assert_eq!(m.render(Lang::En), "7,000,000,000 parameters × 2.0 bytes per parameter (FP16)");
        assert!(m.render(Lang::Fr).starts_with("7\u{202f}000"));
    }

    #[test]
    fn sizes_in_each_language() {
        let b = Bytes::new(14_000_000_000);
        assert_eq!(format_size(b, Lang::En), "14.00 GB (13.04 GiB)");
        assert_eq!(format_size(b, Lang::Fr), "14,00\u{a0}Go (13,04\u{a0}Gio)");
        assert_eq!(format_size(Bytes::new(536_870_912), Lang::Fr), "536,87\u{a0}Mo (512,00\u{a0}Mio)");
        assert_eq!(format_size(Bytes::new(2048), Lang::Fr), "2,05\u{a0}ko (2,00\u{a0}Kio)");
    }

    #[test]
    fn sizes_in_one_unit_system() {
        let b = Bytes::new(14_000_000_000);
        assert_eq!(format_size_in(b, Lang::En, Units::Decimal), "14.00 GB");
        assert_eq!(format_size_in(b, Lang::En, Units::Binary), "13.04 GiB");
        assert_eq!(format_size_in(b, Lang::Fr, Units::Binary), "13,04\u{a0}Gio");
        // 1.02 GB is under a GiB: alone, it is written in MiB; beside GB, in GiB.
        let b = Bytes::new(1_020_000_000);
        assert_eq!(format_size_in(b, Lang::En, Units::Binary), "972.75 MiB");
        assert_eq!(format_size_in(b, Lang::En, Units::Both), "1.02 GB (0.95 GiB)");
        for u in Units::ALL {
            assert_eq!(Units::parse(u.id()), Some(u));
        }
        assert_eq!(Units::parse("GiB"), Some(Units::Binary));
        assert_eq!(Units::parse("tb"), None);
        let m = Msg::new(MsgId::NoteOffloadRamUnchecked, vec![Arg::Size(Bytes::new(14_000_000_000))]);
        assert!(!m.render_in(Lang::En, Units::Binary).contains("GB"));
    }

    #[test]
    fn language_tags() {
        assert_eq!(Lang::from_tag("fr-CA"), Some(Lang::Fr));
        assert_eq!(Lang::from_tag("EN"), Some(Lang::En));
        assert_eq!(Lang::from_tag("de"), None);
        assert_eq!(Lang::from_tag(""), None);
    }
}
