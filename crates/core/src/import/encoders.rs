//! The encoders of a multimodal `config.json`, counted as `transformers` builds them (module by
//! module, from `models/<family>/modeling_<family>.py`), with each config class's defaults for
//! keys the file leaves out.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::json::Value;
use crate::model::{Encoder, Modality, SpeechOutput, TokenRule};

/// A vision tower the config describes, or why it is not counted (`Err` names the kind).
/// `text_hidden` is the language model's width, which the projectors map into.
pub(crate) fn vision(root: &Value, family: &str, text_hidden: u64) -> Option<Result<Encoder, String>> {
    let outer = root.get("model_type").and_then(Value::as_str).unwrap_or(family);
    if outer == "moondream3" {
        return Some(moondream3_vision(root, text_hidden));
    }
    match tower_of(root, outer) {
        Some(by_tower) => tower(root, by_tower, text_hidden),
        None => tower(root, outer, text_hidden),
    }
}

/// Moondream 3's vision encoder (vLLM 0.34 `moondream3.py`, `config.vision` or its defaults): a
/// biased linear patch embedding of `enc_patch_size`² × 3 pixels, a table of `(crop_size /
/// patch)²` positions, LayerNorm blocks with a biased fused qkv, output and GELU MLP, a final
/// LayerNorm; the projector reads the global crop's features beside the local crops' (pooled to
/// the same grid): `2 × enc_dim → proj_inner_dim → dim`, biased. One image a prompt, a fixed 730
/// tokens (the BOS and the 27 × 27 grid) whatever its size; up to 13 crops of 378² run.
fn moondream3_vision(root: &Value, text_hidden: u64) -> Result<Encoder, String> {
    let empty = Value::Object(Vec::new());
    let v = root.get("config").and_then(|c| c.get("vision")).unwrap_or(&empty);
    let n = |k: &str, d: u64| v.get(k).and_then(Value::as_u64).unwrap_or(d);
    let (c, p, layers, ff) =
        (n("enc_dim", 1152), n("enc_patch_size", 14), n("enc_n_layers", 27), n("enc_ff_dim", 4304));
    let (inner, crop) = (n("proj_inner_dim", 8192), n("crop_size", 378));
    if [c, p, layers, ff, inner, crop].iter().any(|x| *x == 0 || *x > 1 << 16) || crop < p {
        return Err("moondream3 vision (its sizes are out of range)".into());
    }
    let positions = (crop / p).pow(2);
    let block_mat = 3 * c * c + c * c + 2 * c * ff;
    let block_other = 4 * c + 3 * c + c + ff + c;
    let projector = 2 * c * inner + inner + inner * text_hidden + text_hidden;
    Ok(Encoder {
        modality: Modality::Image,
        kind: "moondream3_vision".into(),
        layers,
        hidden: c,
        intermediate: ff,
        block_params: layers * block_mat,
        other_params: p * p * 3 * c + c + positions * c + layers * block_other + 2 * c + projector,
        patch: p,
        merge: 1,
        tokens: TokenRule::Fixed { tokens: positions + 1 },
        largest: crop,
        fixed_patches: Some(positions),
        whole_in_vllm: false,
        vllm_buffers: 0,
    })
}

/// A wrapper Headroom has no arm for that keeps a whole vision-language stack of a family it
/// reads — its vision config names that family's tower and its text config that family's text
/// model (Intern-S2: `qwen3_5_moe_vision` and `qwen3_5_moe_text`) — is read by that family's arm:
/// the tower and its merger are all in the vision config. A wrapper that pairs a tower with
/// another text model (HyperCLOVA X's Qwen2.5-VL tower) may add its own projector, so its
/// encoder stays said, not counted.
fn tower_of<'a>(root: &'a Value, outer: &str) -> Option<&'a str> {
    const BY_CONFIG: [&str; 7] =
        ["qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe", "qwen2_5_vl", "qwen2_vl", "glm4v"];
    let inner = thinker(root);
    // Qwen3.5's published vision config names the family itself (`qwen3_5_moe`), others add
    // `_vision`.
    let named = inner.get("vision_config")?.get("model_type")?.as_str()?;
    let base = named.strip_suffix("_vision").unwrap_or(named);
    let text = inner.get("text_config")?.get("model_type")?.as_str()?;
    let known = BY_CONFIG.contains(&outer)
        || matches!(
            outer,
            "glm4v_moe" | "glm46v" | "glmga" | "cosmos3_omni" | "qwen3_omni_moe" | "qwen2_5_omni"
        );
    (!known && BY_CONFIG.contains(&base) && text.strip_suffix("_text") == Some(base)).then_some(base)
}

/// The `(frames, height, width, channels)` scales of Inkling's patch encoder, one more than its
/// layers (vLLM 0.34 `plan_out_scales`): the candidates fold the patch's prime factors into
/// space from the largest, then the frames', their channels rounded up to 64; the layers take
/// the candidates whose logarithmic size reduction is nearest an even spread from 1 to the whole
/// patch (one each, in order, by least total distance, the first such in lexicographic order,
/// when there are more candidates than scales), the first and the last candidate always.
fn hmlp_scales(frames: u64, patch: u64, layers: u64, channels: u64) -> Vec<(u64, u64, u64)> {
    fn primes(mut n: u64) -> Vec<u64> {
        let mut f = Vec::new();
        let mut p = 2;
        while p * p <= n {
            while n.is_multiple_of(p) {
                f.push(p);
                n /= p;
            }
            p += 1;
        }
        if n > 1 {
            f.push(n);
        }
        f
    }
    let round = |x: u64| x.div_ceil(64) * 64;
    // (frames, side, channels)
    let mut cand = alloc::vec![(1u64, 1u64, channels)];
    let mut side = 1;
    for q in primes(patch).into_iter().rev() {
        side *= q;
        cand.push((1, side, round(side * side * channels)));
    }
    let mut t = 1;
    for q in primes(frames).into_iter().rev() {
        t *= q;
        cand.push((t, side, round(side * side * channels * t)));
    }
    let rows = layers as usize + 1;
    let top = crate::ops::ln((patch * patch * frames * channels) as f64);
    let ideal = |r: usize| top * r as f64 / layers as f64;
    let cost = |r: usize, c: usize| {
        let (t, s, _) = cand[c];
        crate::ops::abs(ideal(r) - crate::ops::ln((t * s * s) as f64))
    };
    let mut idx: Vec<usize> = if rows >= cand.len() {
        (0..rows)
            .map(|r| (0..cand.len()).fold(0, |best, c| if cost(r, c) < cost(r, best) { c } else { best }))
            .collect()
    } else {
        // Increasing picks of `rows` candidates, in lexicographic order; the first least.
        let mut pick: Vec<usize> = (0..rows).collect();
        let (mut best, mut best_cost) = (pick.clone(), f64::INFINITY);
        loop {
            let total: f64 = pick.iter().enumerate().map(|(r, &c)| cost(r, c)).sum();
            if total < best_cost {
                (best, best_cost) = (pick.clone(), total);
            }
            let Some(i) = (0..rows).rev().find(|&i| pick[i] < cand.len() - rows + i) else { break };
            pick[i] += 1;
            for j in i + 1..rows {
                pick[j] = pick[j - 1] + 1;
            }
        }
        best
    };
    idx[0] = 0;
    idx[rows - 1] = cand.len() - 1;
    idx.into_iter().map(|i| cand[i]).collect()
}

/// DeepSeek-OCR's DeepEncoder, as vLLM's `deepencoder.py` and transformers 5.24's
/// `UnlimitedOcrVisionModel` build it: SAM ViT-B (a biased patch conv, an absolute position table,
/// LayerNorm blocks with a biased qkv, output and MLP, relative positions `2·window − 1` a side on
/// windowed blocks and `2·image/patch − 1` on the global ones; a neck of a 1×1 and a 3×3 bias-free
/// conv to 256 channels with LayerNorms, then `down` 3×3 bias-free convs) feeding CLIP-L (a class
/// token, a position table, a bias-free patch conv where the checkpoint keeps one, a pre-norm,
/// LayerNorm blocks with biased q, k, v, output and MLP).
struct DeepEncoder {
    sam_width: u64,
    sam_layers: u64,
    sam_mlp: u64,
    sam_image: u64,
    sam_patch: u64,
    window: u64,
    sam_heads: u64,
    global: u64,
    neck: u64,
    down: Vec<u64>,
    clip_width: u64,
    clip_layers: u64,
    clip_mlp: u64,
    clip_image: u64,
    clip_patch: u64,
    clip_patch_conv: bool,
}

impl DeepEncoder {
    /// SAM as transformers' `sam_config` names it (its defaults SAM ViT-B's, the last
    /// downsampling conv `last` channels), no CLIP yet.
    fn from_sam_config(sam: &Value, last: u64) -> Self {
        let g = |k: &str, d: u64| sam.get(k).and_then(Value::as_u64).unwrap_or(d);
        DeepEncoder {
            sam_width: g("hidden_size", 768),
            sam_layers: g("num_hidden_layers", 12),
            sam_mlp: g("mlp_dim", 3072),
            sam_image: g("image_size", 1024),
            sam_patch: g("patch_size", 16).max(1),
            window: g("window_size", 14),
            sam_heads: g("num_attention_heads", 12).max(1),
            global: sam.get("global_attn_indexes").and_then(Value::as_array).map_or(4, |a| a.len() as u64),
            neck: g("output_channels", 256),
            down: match sam.get("downsample_channels").and_then(Value::as_array) {
                Some(a) => a.iter().filter_map(Value::as_u64).collect(),
                None => alloc::vec![512, last],
            },
            clip_width: 0,
            clip_layers: 0,
            clip_mlp: 0,
            clip_image: 0,
            clip_patch: 1,
            clip_patch_conv: false,
        }
    }

    /// SAM's parameters: `(block matrices, everything else)`, its neck and downsampling convs
    /// included.
    fn sam(&self) -> (u64, u64) {
        let (sh, sl, sm, sp, out) =
            (self.sam_width, self.sam_layers, self.sam_mlp, self.sam_patch, self.neck);
        let global = self.global.min(sl);
        let grid = self.sam_image / sp;
        let rel = |side: u64| 2 * (2 * side).saturating_sub(1) * (sh / self.sam_heads);
        let other = grid * grid * sh
            + 3 * sp * sp * sh
            + sh
            + sl * (9 * sh + sm)
            + (sl - global) * rel(self.window)
            + global * rel(grid)
            + sh * out
            + 2 * out
            + 9 * out * out
            + 2 * out;
        let mut conv = (0, out);
        for c in &self.down {
            conv = (conv.0 + 9 * conv.1 * c, *c);
        }
        (sl * (4 * sh * sh + 2 * sh * sm), other + conv.0)
    }

    /// The tower with its `projector` and the two learned separators (`embed` wide: a row
    /// newline and a view separator); views of a 1,024-pixel global image and at most `max_tiles`
    /// tiles of 640.
    fn encoder(&self, projector: u64, embed: u64, max_tiles: u64) -> Encoder {
        let (sam_blocks, sam_other) = self.sam();
        let (ch, cl, ci) = (self.clip_width, self.clip_layers, self.clip_mlp);
        let side = self.clip_image / self.clip_patch;
        let patch_conv = if self.clip_patch_conv { 3 * self.clip_patch * self.clip_patch * ch } else { 0 };
        let clip_other = ch + (side * side + 1) * ch + patch_conv + 2 * ch + cl * (9 * ch + ci);
        Encoder {
            modality: Modality::Image,
            kind: "deepencoder".into(),
            layers: self.sam_layers + cl,
            hidden: ch,
            intermediate: ci,
            block_params: sam_blocks + cl * (4 * ch * ch + 2 * ch * ci),
            other_params: sam_other + clip_other + projector + 2 * embed,
            patch: self.sam_patch,
            merge: 4,
            tokens: TokenRule::GlobalLocal {
                global: 16,
                tile: 640,
                per_side: 10,
                max_tiles,
                newlines: true,
                ceil_tiles: false,
            },
            largest: 640 * 5,
            fixed_patches: None,
            whole_in_vllm: false,
            vllm_buffers: 0,
        }
    }

    /// DeepSeek-OCR-2's DeepEncoder V2 as vLLM's `deepseek_ocr2.py` builds it, whatever the
    /// vision config says: SAM ViT-B whose last conv gives `width` channels, into a Qwen2
    /// decoder run as an encoder (`deepencoder2.py`: `layers` Qwen2 layers `width` wide with
    /// `heads`/`kv_heads` heads — biased q, k, v — a SiLU gated MLP `mlp` wide, RMS norms and a
    /// final one, no token embeddings) with learned queries for the 768 and 1,024 views (144 and
    /// 256 rows); the `projector` and one view separator `embed` wide. Views: the 1,024-pixel
    /// global view's 16 × 16 tokens and, above a 768 tile, `k × k` tiles of 12 × 12, no newline
    /// tokens, one separator.
    fn encoder_v2(
        &self,
        qwen: (u64, u64, u64, u64, u64),
        projector: u64,
        embed: u64,
        max_tiles: u64,
    ) -> Encoder {
        let (sam_blocks, sam_other) = self.sam();
        let (layers, w, heads, kv_heads, mlp) = qwen;
        let kv = w / heads.max(1) * kv_heads;
        let blocks = layers * (2 * w * w + 2 * w * kv + 3 * w * mlp);
        let other = layers * (w + 2 * kv + 2 * w) + w + (144 + 256) * w;
        Encoder {
            modality: Modality::Image,
            kind: "deepencoder_v2".into(),
            layers: self.sam_layers + layers,
            hidden: w,
            intermediate: mlp,
            block_params: sam_blocks + blocks,
            other_params: sam_other + other + projector + embed,
            patch: self.sam_patch,
            merge: 4,
            tokens: TokenRule::GlobalLocal {
                global: 16,
                tile: 768,
                per_side: 12,
                max_tiles,
                newlines: false,
                ceil_tiles: false,
            },
            largest: 768 * 5,
            fixed_patches: None,
            whole_in_vllm: false,
            vllm_buffers: 0,
        }
    }
}

/// The vision encoder of a model whose wrapper is `outer`.
fn tower(root: &Value, outer: &str, text_hidden: u64) -> Option<Result<Encoder, String>> {
    let root = thinker(root);
    let v = root.get("vision_config").filter(|v| v.as_object().is_some());
    let kind = v.and_then(|v| v.get("model_type")).and_then(Value::as_str).unwrap_or("").to_string();
    if let Some(v) = v
        && let Some(why) = out_of_range(root, v, text_hidden)
    {
        return Some(Err(format!("{} vision ({why})", if kind.is_empty() { outer } else { &kind })));
    }
    let empty = Value::Object(Vec::new());
    let vc = v.unwrap_or(&empty);
    let n = |k: &str, d: u64| vc.get(k).and_then(Value::as_u64).unwrap_or(d);
    let enc = match outer {
        // Qwen3-Omni's thinker carries Qwen3-VL's vision encoder (`Qwen3OmniMoeVisionEncoder`:
        // the same patch embedding, position table, blocks, merger and deepstack mergers).
        // Cosmos 3 Omni (`cosmos3_omni`) carries Qwen3-VL's vision model.
        // Qwen4-Exp (Qwen3.8-Flash-Next) carries Qwen3-VL's vision model without deepstack mergers.
        "qwen3_vl" | "qwen3_vl_moe" | "qwen3_5" | "qwen3_5_moe" | "qwen3_omni_moe" | "cosmos3_omni"
        | "qwen4_exp" => {
            v?;
            let (h, i, depth) = (n("hidden_size", 1152), n("intermediate_size", 4304), n("depth", 27));
            let (p, t, c, m) = (
                n("patch_size", 16),
                n("temporal_patch_size", 2),
                n("in_channels", 3),
                n("spatial_merge_size", 2),
            );
            let out = n("out_hidden_size", 3584);
            let pos = n("num_position_embeddings", 2304);
            let deepstack = match vc.get("deepstack_visual_indexes").and_then(Value::as_array) {
                Some(a) => a.len() as u64,
                // Qwen3.5's vision has no deepstack mergers; Qwen3-VL's and Qwen3-Omni's
                // defaults list three.
                None if outer.starts_with("qwen3_vl") || outer == "qwen3_omni_moe" => 3,
                None => 0,
            };
            let hm = h * m * m;
            let block_mat = h * 3 * h + h * h + 2 * h * i;
            let block_other = 4 * h + 3 * h + h + i + h;
            let merger =
                |post_norm: bool| (if post_norm { 2 * hm } else { 2 * h }) + hm * hm + hm + hm * out + out;
            Encoder {
                modality: Modality::Image,
                kind: if kind.is_empty() { outer.into() } else { kind },
                layers: depth,
                hidden: h,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: c * t * p * p * h
                    + h
                    + pos * h
                    + depth * block_other
                    + merger(false)
                    + deepstack * merger(true),
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                // The processor's `size.longest_edge` (max pixels): 16,777,216 = 4,096²;
                // Qwen3-Omni's `Qwen2VLImageProcessor` keeps `max_pixels` 12,845,056 = 3,584².
                largest: if outer == "qwen3_omni_moe" { 3584 } else { 4096 },
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        // GLM-GA (`glmga`) keeps GLM-4.6V's vision model.
        "glm4v" | "glm4v_moe" | "glm46v" | "glmga" => {
            v?;
            // GLM-4.1V / 4.5V / 4.6V's vision model (transformers 5.24 `Glm4vVisionModel`, the same
            // in `glm4v_moe`): a learned `(image_size / patch)²` position table, a biased Conv3d
            // patch embedding, RMS-normed blocks with a fused qkv (biased only with
            // `attention_bias`), a bias-free output projection and a bias-free gated MLP
            // `out_hidden_size` wide, a post-block RMS norm, a biased m × m convolution into
            // `out_hidden_size`, and the merger: a bias-free linear, a LayerNorm and a bias-free
            // gated MLP `intermediate_size` wide. The text model reads the merger's output.
            let (h, i, depth) = (n("hidden_size", 1536), n("intermediate_size", 13696), n("depth", 24));
            let o = n("out_hidden_size", 4096);
            let (p, t, c, m) = (
                n("patch_size", 14),
                n("temporal_patch_size", 2),
                n("in_channels", 3),
                n("spatial_merge_size", 2),
            );
            let image = n("image_size", 336);
            let positions = (image / p.max(1)) * (image / p.max(1));
            let qkv_bias = flag(vc, "attention_bias", false);
            let block_mat = 4 * h * h + 3 * h * o;
            let block_other = 2 * h + 3 * h * qkv_bias;
            let merger = o * o + 2 * o + 3 * o * i;
            Encoder {
                modality: Modality::Image,
                kind: if kind.is_empty() { outer.into() } else { kind },
                layers: depth,
                hidden: h,
                intermediate: o,
                block_params: depth * block_mat,
                other_params: positions * h
                    + c * t * p * p * h
                    + h
                    + depth * block_other
                    + h
                    + h * m * m * o
                    + o
                    + h
                    + merger,
                patch: p,
                merge: m,
                // `Glm4vImageProcessor`'s smart_resize: each side rounded to the nearest multiple
                // of patch × merge (28), one token per merged patch, as Qwen2-VL's.
                tokens: TokenRule::NearestGrid,
                // The pixel budget vLLM's GLM-4.1V example and the published video processor
                // set (`size.longest_edge` 47,040,000 over an image's two temporal frames):
                // 23,520,000 pixels, a square of 173 × 28 = 4,844 a side.
                largest: 4844,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        // Qwen2.5-Omni's thinker carries Qwen2.5-VL's vision encoder (transformers 5.24
        // `Qwen2_5OmniVisionEncoder`: the same bias-free Conv3d patch embedding, RMS-normed blocks
        // with biased q, k, v (three linears where Qwen2.5-VL fuses them: the same count), a
        // biased output projection and a biased gated MLP, and the same merger; the same class
        // defaults). Its window attention and `fullatt_block_indexes` change no weight.
        "qwen2_5_vl" | "qwen2_5_omni" => {
            v?;
            let (h, i, depth) = (n("hidden_size", 3584), n("intermediate_size", 3420), n("depth", 32));
            let (p, t, c, m) = (
                n("patch_size", 14),
                n("temporal_patch_size", 2),
                n("in_channels", 3),
                n("spatial_merge_size", 2),
            );
            let out = n("out_hidden_size", 3584);
            let hm = h * m * m;
            let block_mat = h * 3 * h + h * h + 3 * h * i;
            // RMS norms (weights only), biases on qkv, proj and the three MLP matrices.
            let block_other = 2 * h + 3 * h + h + 2 * i + h;
            Encoder {
                modality: Modality::Image,
                kind: match outer {
                    "qwen2_5_omni" if !kind.is_empty() => kind,
                    "qwen2_5_omni" => "qwen2_5_omni_vision_encoder".into(),
                    _ => "qwen2_5_vl".into(),
                },
                layers: depth,
                hidden: h,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: c * t * p * p * h + depth * block_other + h + hm * hm + hm + hm * out + out,
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                // The processor's `max_pixels`: 12,845,056 = 3,584² (Qwen2.5-Omni's published
                // `Qwen2VLImageProcessor` keeps the same).
                largest: 3584,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "mimo_v2" => {
            // MiMo-V2.5's vision tower (vLLM 0.34 `mimo_v2_omni.py`, `MiMoV2OmniVisionConfig`'s
            // defaults): Qwen2.5-VL's patch embedding and merger (bias-free), blocks of RMS norms,
            // grouped-query attention (`num_heads` queries of `qk_channels`, `num_key_value_heads`
            // of `kv_channels`, biased qkv and proj), a sink logit a head on the windowed blocks
            // (`use_sink`: all but `fullatt_block_indexes`), a biased gated MLP. Qwen's
            // `smart_resize` to multiples of 32 within the processor's pixel bounds.
            let v = v?;
            let (h, i, depth) = (n("hidden_size", 1280), n("intermediate_size", 4608), n("depth", 28));
            let (heads, kv) = (n("num_heads", 32), n("num_key_value_heads", 8));
            let (qk, vd) = (n("qk_channels", 64), n("kv_channels", 64));
            let (p, t, c, m) = (
                n("patch_size", 16),
                n("temporal_patch_size", 2),
                vc.get("in_chans").or(vc.get("in_channels")).and_then(Value::as_u64).unwrap_or(3),
                n("spatial_merge_size", 2),
            );
            let out = n("out_hidden_size", text_hidden);
            let full = v
                .get("fullatt_block_indexes")
                .and_then(Value::as_array)
                .map_or(4, |a| a.iter().filter(|x| x.as_u64().is_some_and(|b| b < depth)).count() as u64);
            let sinks = if v.get("use_sink").and_then(Value::as_bool).unwrap_or(false) {
                depth.saturating_sub(full) * heads
            } else {
                0
            };
            let qkv = heads * qk + kv * (qk + vd);
            let block_mat = qkv * h + h * heads * vd + 3 * h * i;
            let block_other = 2 * h + qkv + h + 2 * i + h;
            let hm = h * m * m;
            let max_pixels = root
                .get("processor_config")
                .and_then(|pc| pc.get("image_max_pixels"))
                .and_then(Value::as_u64)
                .unwrap_or(4096 * 32 * 32);
            Encoder {
                modality: Modality::Image,
                kind: "mimo_v2_vision".into(),
                layers: depth,
                hidden: h,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: c * t * p * p * h + depth * block_other + sinks + h + hm * hm + out * hm,
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                largest: max_pixels.isqrt(),
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "qwen2_vl" => {
            v?;
            let (e, depth) = (n("embed_dim", 1280), n("depth", 32));
            let i = e * n("mlp_ratio", 4);
            let out = n("hidden_size", 3584);
            let (p, t, c, m) = (
                n("patch_size", 14),
                n("temporal_patch_size", 2),
                n("in_channels", 3),
                n("spatial_merge_size", 2),
            );
            let em = e * m * m;
            let block_mat = e * 3 * e + e * e + 2 * e * i;
            let block_other = 4 * e + 3 * e + e + i + e;
            Encoder {
                modality: Modality::Image,
                kind: "qwen2_vl".into(),
                layers: depth,
                hidden: e,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: c * t * p * p * e + depth * block_other + 2 * e + em * em + em + em * out + out,
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                // The processor's `max_pixels`: 12,845,056 = 3,584² (Qwen2.5-Omni's published
                // `Qwen2VLImageProcessor` keeps the same).
                largest: 3584,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "gemma3" => {
            // SigLIP with Gemma 3's projector (a matrix and a norm), at SiglipVisionConfig's
            // defaults for what the file leaves out.
            let (h, i, layers) =
                (n("hidden_size", 768), n("intermediate_size", 3072), n("num_hidden_layers", 12));
            let (p, c, image) = (n("patch_size", 16), n("num_channels", 3), n("image_size", 224));
            let head = vc.get("vision_use_head").and_then(Value::as_bool).unwrap_or(true);
            let positions = (image / p.max(1)) * (image / p.max(1));
            let block_mat = 4 * h * h + 2 * h * i;
            let block_other = 4 * h + 4 * h + i + h;
            let head_params =
                if head { h + 3 * h * h + 3 * h + h * h + h + 2 * h + 2 * h * i + i + h } else { 0 };
            let text = text_hidden;
            let projector = h * text + h;
            Encoder {
                modality: Modality::Image,
                kind: "siglip".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * block_mat,
                other_params: c * p * p * h
                    + h
                    + positions * h
                    + layers * block_other
                    + 2 * h
                    + head_params
                    + projector,
                patch: p,
                merge: 1,
                tokens: TokenRule::Fixed {
                    tokens: root.get("mm_tokens_per_image").and_then(Value::as_u64).unwrap_or(256),
                },
                largest: image,
                fixed_patches: Some(positions),
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "llama4" => {
            v?;
            // Llama 4's vision encoder: a linear patch embedding, a class token and learned
            // positions, LayerNorm blocks with biased attention and a two-layer MLP, the
            // pixel-shuffle adapter (`vision_adapter`, no biases), then the projector into the text
            // model (`multi_modal_projector.linear_1`, no bias).
            let (h, i, layers) =
                (n("hidden_size", 768), n("intermediate_size", 5632), n("num_hidden_layers", 34));
            let (p, image, c) = (n("patch_size", 14), n("image_size", 448), n("num_channels", 3));
            let (pin, pout) = (n("projector_input_dim", 4096), n("projector_output_dim", 4096));
            let out = n("vision_output_dim", 7680);
            let ratio = vc.get("pixel_shuffle_ratio").and_then(Value::as_f64).unwrap_or(0.5);
            let patches = (image / p.max(1)) * (image / p.max(1));
            let block_mat = 4 * h * h + 2 * h * i;
            let block_other = 4 * h + i + h + 4 * h;
            let text = text_hidden;
            let merge = if ratio > 0.0 { (1.0 / ratio) as u64 } else { 1 };
            Encoder {
                modality: Modality::Image,
                kind: "llama4_vision".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * block_mat,
                other_params: h
                    + (patches + 1) * h
                    + c * p * p * h
                    + 4 * h
                    + layers * block_other
                    + i * pin
                    + pin * pout
                    + out * text,
                patch: p,
                merge,
                tokens: TokenRule::Tiles { tile: image, per_tile: patches / (merge * merge).max(1) },
                // The processor's `max_patches`: 16 tiles, 4 × 4.
                largest: 4 * image,
                fixed_patches: Some(patches),
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "mllama" => {
            v?;
            // Llama 3.2 Vision (transformers 5.24 `MllamaVisionModel` and its projector): a
            // bias-free patch convolution, a class token, a gated position table (`num_patches`
            // rows, and one `tiles × num_patches × h` row per aspect ratio), gated pre- and
            // post-tile embeddings (`tiles × h` per aspect ratio), LayerNorms before and after;
            // `num_hidden_layers` blocks and `num_global_layers` gated ones (bias-free q, k, v,
            // o; a biased two-layer MLP; two LayerNorms; the global blocks' two gates); then the
            // biased projector from the concatenated intermediate outputs
            // (`vision_output_dim`) into the text model. The text attends the tiles' positions
            // through its cross-attention layers: one `<|image|>` token enters the context.
            let (h, i) = (n("hidden_size", 1280), n("intermediate_size", 5120));
            let (local, global) = (n("num_hidden_layers", 32), n("num_global_layers", 8));
            let (p, image, c) = (n("patch_size", 14), n("image_size", 448), n("num_channels", 3));
            let tiles = n("max_num_tiles", 4);
            let ratios =
                vc.get("supported_aspect_ratios").and_then(Value::as_array).map_or(8, |a| a.len() as u64);
            let out = n("vision_output_dim", 7680);
            let patches = (image / p.max(1)) * (image / p.max(1)) + 1;
            let layers = local + global;
            let block_mat = 4 * h * h + 2 * h * i;
            let block_other = i + h + 4 * h;
            Encoder {
                modality: Modality::Image,
                kind: "mllama_vision_model".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * block_mat,
                other_params: c * p * p * h
                    + h
                    + patches * h
                    + 1
                    + (ratios + 1) * tiles * patches * h
                    + 2 * ((ratios + 1) * tiles * h + 1)
                    + 4 * h
                    + layers * block_other
                    + global * 2
                    + out * text_hidden
                    + text_hidden,
                patch: p,
                merge: 1,
                tokens: TokenRule::Fixed { tokens: 1 },
                largest: image,
                fixed_patches: Some(tiles * patches),
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "kimi_k25" => {
            v?;
            // Kimi K2.5's MoonViT: a Conv2d patch embedding with bias, a learned 2-D position
            // table (its temporal table is a fixed buffer, not stored), LayerNorm blocks with a
            // fused biased `wqkv`, `wo` and a two-layer MLP, a final LayerNorm; the patch-merger
            // projector (LayerNorm, then (w·k²)² and w·k² → text width, with biases).
            let (h, i, layers) =
                (n("vt_hidden_size", 1152), n("vt_intermediate_size", 4304), n("vt_num_hidden_layers", 27));
            let p = n("patch_size", 14);
            let pos = n("init_pos_emb_height", 64) * n("init_pos_emb_width", 64);
            let (side, k) = moonvit_merge(vc);
            let mm = n("mm_hidden_size", h);
            let text = vc.get("text_hidden_size").and_then(Value::as_u64).unwrap_or(text_hidden);
            let merged = mm * k;
            let block_mat = 4 * h * h + 2 * h * i;
            let block_other = 4 * h + 3 * h + h + i + h;
            Encoder {
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * block_mat,
                other_params: 3 * p * p * h
                    + h
                    + pos * h
                    + layers * block_other
                    + 2 * h
                    + 2 * mm
                    + merged * merged
                    + merged
                    + merged * text
                    + text,
                ..moonvit(p, side)
            }
        }
        "kimi_k3" | "kimi_k31" => {
            v?;
            // Kimi K3's MoonViT (vLLM's `KimiK3VisionConfig`; the checkpoint's `vision_tower.*` and
            // `mm_projector.*`): a patch embedding (bias by `patch_embed_proj_bias`), a learned
            // 2-D position table, RMS-normed blocks (`norm_type`) whose fused `wqkv` projects to
            // `qkv_hidden_size` per q, k and v and `wo` back, a two-layer MLP (biases by
            // `attn_bias` and `linear_bias`), a final norm; the `patchmergerv2` projector: two
            // linear layers from the merged patches to the text width and a norm after them.
            let (h, i, layers) =
                (n("vt_hidden_size", 1024), n("vt_intermediate_size", 4096), n("vt_num_hidden_layers", 27));
            let q = n("qkv_hidden_size", 1536);
            let p = n("patch_size", 14);
            let pos = n("init_pos_emb_height", 64) * n("init_pos_emb_width", 64);
            let flag = |k: &str| vc.get(k).and_then(Value::as_bool).unwrap_or(false);
            let rms = vc.get("norm_type").and_then(Value::as_str).is_none_or(|t| t == "rmsnorm");
            let norm = if rms { h } else { 2 * h };
            let (side, k) = moonvit_merge(vc);
            let merged = n("mm_hidden_size", h) * k;
            let text = vc.get("text_hidden_size").and_then(Value::as_u64).unwrap_or(text_hidden);
            let attn_bias = if flag("attn_bias") { 3 * q + h } else { 0 };
            let mlp_bias = if flag("linear_bias") { i + h } else { 0 };
            let proj_bias = if flag("linear_bias") { merged + text } else { 0 };
            Encoder {
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (3 * q * h + h * q + 2 * h * i),
                other_params: 3 * p * p * h
                    + if flag("patch_embed_proj_bias") { h } else { 0 }
                    + pos * h
                    + layers * (2 * norm + attn_bias + mlp_bias)
                    + norm
                    + merged * merged
                    + merged * text
                    + proj_bias
                    + if rms { text } else { 2 * text },
                ..moonvit(p, side)
            }
        }
        // DiffusionGemma keeps Gemma 4's vision tower and embedder.
        "gemma4" | "diffusion_gemma" => {
            v?;
            // Gemma 4's vision encoder: a linear patch embedding, a 2-D position table, RMS-normed
            // blocks with q/k norms and a gated MLP, the soft tokens pooled; the embedder projects
            // them into the text model (`embed_vision`, no bias).
            let (h, i, layers) =
                (n("hidden_size", 768), n("intermediate_size", 3072), n("num_hidden_layers", 16));
            let heads = n("num_attention_heads", 12);
            let kv = n("num_key_value_heads", heads);
            let hd = n("head_dim", 64);
            let (p, pos) = (n("patch_size", 16), n("position_embedding_size", 10 * 1024));
            let flag = |k: &str| vc.get(k).and_then(Value::as_bool).unwrap_or(false);
            let block_mat = 2 * h * heads * hd + 2 * h * kv * hd + 3 * h * i;
            // Four norms, q/k norms; clipped linears keep four bounds each (7 linears a block).
            let block_other = 4 * h + 2 * hd + if flag("use_clipped_linears") { 28 } else { 0 };
            let text = text_hidden;
            let standardize = if flag("standardize") { 2 * h } else { 0 };
            Encoder {
                modality: Modality::Image,
                kind: "gemma4_vision".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * block_mat,
                other_params: 3 * p * p * h + 2 * pos * h + layers * block_other + standardize + h * text,
                patch: p,
                merge: n("pooling_kernel_size", 3),
                tokens: match root.get("vision_soft_tokens_per_image").and_then(Value::as_u64) {
                    Some(tokens) => TokenRule::Fixed { tokens },
                    None => TokenRule::NearestGrid,
                },
                largest: pos_side(pos) * p,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "mistral3" | "llava" | "lighton_ocr" | "mistral_large4" if kind == "pixtral" => {
            // Pixtral's tower (`PixtralVisionModel`: a bias-free patch convolution, RMS norms, a
            // gated MLP, no final norm, rotary positions that are not stored) at
            // PixtralVisionConfig's defaults. Mistral 3's projector: an RMS norm, the bias-free
            // patch merger (m² · w → w), then two linears (LightOnOCR's the same); LLaVA's: the
            // two linears, with biases by default.
            v?;
            let t = Tower::pixtral(vc);
            let text = text_hidden;
            let f = feature_layers(root);
            let (merge, projector) = if outer != "llava" {
                let m = root.get("spatial_merge_size").and_then(Value::as_u64).unwrap_or(2);
                let b = flag(root, "multimodal_projector_bias", false);
                (m, t.h + m * m * t.h * t.h + t.h * f * text + text * text + 2 * b * text)
            } else {
                (1, llava_projector(root, t.h * f, text))
            };
            t.encoder(
                "pixtral",
                projector,
                merge,
                // The processor scales an image down to `size.longest_edge`, which the published
                // checkpoints set to the tower's `image_size`.
                TokenRule::RowBreaks { longest_edge: n("image_size", 1024) },
                None,
            )
        }
        "llava" if matches!(kind.as_str(), "clip_vision_model" | "") => {
            // CLIP's tower, built whole whatever `vision_feature_layer` picks, and LLaVA's
            // projector; the "default" feature strategy drops the class token.
            v?;
            let t = Tower::clip(vc);
            let text = text_hidden;
            let projector = llava_projector(root, t.h * feature_layers(root), text);
            let grid = t.grid();
            let full = root.get("vision_feature_select_strategy").and_then(Value::as_str) == Some("full");
            let tokens = if full { grid + 1 } else { grid };
            t.encoder("clip", projector, 1, TokenRule::Fixed { tokens }, Some(grid + 1))
        }
        "llava_next" | "llava_onevision" => {
            // LLaVA-NeXT (CLIP) and LLaVA-OneVision (SigLIP, its pooling head when
            // `vision_use_head`): the tower, LLaVA's two-linear projector and the learned newline
            // vector (`image_newline`, text width) that ends each row of a tiled image.
            v?;
            let t = if kind.starts_with("siglip") {
                Tower::siglip_with(vc, (1152, 4304, 26, 14, 384))
            } else {
                Tower::clip(vc)
            };
            let (h, i) = (t.h, t.i);
            let head = if kind.starts_with("siglip") && flag(vc, "vision_use_head", false) == 1 {
                h + 3 * h * h + 3 * h + h * h + h + 2 * h + 2 * h * i + i + h
            } else {
                0
            };
            let text = text_hidden;
            let projector = head + llava_projector(root, h * feature_layers(root), text) + text;
            // "anyres": the image cut into tiles of the tower's resolution (at most 2 × 2 for
            // LLaVA-NeXT's pinpoints, 3 × 3 for OneVision's `anyres_max_9`) and a thumbnail, every
            // tile all its patches.
            let max_tiles = if outer == "llava_onevision" { 9 } else { 4 };
            let full = root.get("vision_feature_select_strategy").and_then(Value::as_str) == Some("full");
            let per_tile = t.grid() + u64::from(full && !kind.starts_with("siglip"));
            t.encoder(
                if kind.starts_with("siglip") { "siglip" } else { "clip" },
                projector,
                1,
                TokenRule::GridTiles { tile: t.image, per_tile, max_tiles },
                Some(t.grid() + u64::from(!kind.starts_with("siglip"))),
            )
        }
        // transformers' DeepSeek-OCR-2 (`DeepseekOcr2VisionModel`): SAM in `sam_config`, the
        // Qwen2 encoder in `encoder_config` (no token table), 144 + 256 learned queries, the
        // biased projector into the text model and a view separator — vLLM's fixed tower's sizes
        // when its configs leave them out.
        "deepseek_ocr2" => {
            v?;
            let empty = Value::Object(Vec::new());
            let g = |c: &Value, k: &str, d: u64| c.get(k).and_then(Value::as_u64).unwrap_or(d);
            let enc = vc.get("encoder_config").unwrap_or(&empty);
            let dims = DeepEncoder::from_sam_config(vc.get("sam_config").unwrap_or(&empty), 896);
            let w = g(enc, "hidden_size", 896);
            let heads = g(enc, "num_attention_heads", 14).max(1);
            let qwen = (
                g(enc, "num_hidden_layers", 24),
                w,
                heads,
                g(enc, "num_key_value_heads", heads),
                g(enc, "intermediate_size", 4864),
            );
            return Some(Ok(dims.encoder_v2(qwen, w * text_hidden + text_hidden, text_hidden, 6)));
        }
        "unlimited_ocr" => {
            v?;
            // Unlimited-OCR (transformers 5.24 `UnlimitedOcrVisionModel`, vLLM's DeepSeek-OCR
            // wrapper): SAM in `sam_config`, CLIP-L in `encoder_config` (no patch conv: SAM's
            // features are its input), a linear projector from both (`2 ×` CLIP's width).
            let empty = Value::Object(Vec::new());
            let g = |c: &Value, k: &str, d: u64| c.get(k).and_then(Value::as_u64).unwrap_or(d);
            let clip = vc.get("encoder_config").unwrap_or(&empty);
            let dims = DeepEncoder {
                clip_width: g(clip, "hidden_size", 1024),
                clip_layers: g(clip, "num_hidden_layers", 24),
                clip_mlp: g(clip, "intermediate_size", 4096),
                clip_image: g(clip, "image_size", 224),
                clip_patch: g(clip, "patch_size", 14).max(1),
                ..DeepEncoder::from_sam_config(vc.get("sam_config").unwrap_or(&empty), 1024)
            };
            let ch = dims.clip_width;
            // vLLM's views: a 1,024-pixel global view (16 tokens a side) and up to 32 tiles of
            // 640 (10 a side).
            dims.encoder(2 * ch * text_hidden + text_hidden, text_hidden, 32)
        }
        // DeepSeek-OCR (`deepseek_vl_v2` with `DeepseekOCRForCausalLM`, vLLM's `deepseek_ocr.py`):
        // the same DeepEncoder, its sizes under `vision_config.width` (`sam_vit_b`,
        // `clip-l-14-224`; MLPs four times as wide), CLIP keeping its bias-free patch conv, and
        // the projector of `projector_config`. DeepSeek-OCR-2 (`DeepseekOCR2ForCausalLM`): vLLM
        // builds its DeepEncoder V2 from fixed sizes, read as it does. DeepSeek-VL2: timm's
        // SigLIP so400m, below.
        "deepseek_vl_v2" => {
            v?;
            let g = |c: &Value, k: &str, d: u64| c.get(k).and_then(Value::as_u64).unwrap_or(d);
            let ocr2 = root
                .get("architectures")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|c| c.as_str() == Some("DeepseekOCR2ForCausalLM")));
            let empty = Value::Object(Vec::new());
            let p = root.get("projector_config").unwrap_or(&empty);
            let projector = |default_input: u64, default_type: &str| -> Result<(u64, u64), String> {
                let (input, embed) = (g(p, "input_dim", default_input), g(p, "n_embed", text_hidden));
                Ok((
                    match p.get("projector_type").and_then(Value::as_str).unwrap_or(default_type) {
                        "linear" => input * embed + embed,
                        // Two or more GELU-separated linears over `downsample_ratio²` neighbours
                        // (`MlpProjector`).
                        "downsample_mlp_gelu" => {
                            let (r, ratio, depth) =
                                (g(p, "downsample_ratio", 2), g(p, "mlp_ratio", 1), g(p, "depth", 2).max(2));
                            let mid = embed * ratio;
                            (input * r * r * mid + mid)
                                + (depth - 2) * (mid * mid + mid)
                                + (mid * embed + embed)
                        }
                        other => return Err(format!("deepseek_vl_v2 projector `{other}`")),
                    },
                    embed,
                ))
            };
            let sam = |width: Option<&Value>, last: u64| {
                let sam = width.unwrap_or(&empty);
                // The hub's keys (`width`, `layers`, `heads`; MLPs four times as wide), the rest
                // as transformers names them.
                let sw = g(sam, "width", 768);
                DeepEncoder {
                    sam_width: sw,
                    sam_layers: g(sam, "layers", 12),
                    sam_mlp: 4 * sw,
                    sam_image: n("image_size", 1024),
                    sam_heads: g(sam, "heads", 12).max(1),
                    clip_patch_conv: true,
                    ..DeepEncoder::from_sam_config(sam, last)
                }
            };
            if ocr2 {
                // vLLM's `deepseek_ocr2.py`: SAM ViT-B ending in 896 channels, the Qwen2
                // encoder of `build_qwen2_decoder_as_encoder` (24 layers of 896, 14 heads and 2
                // KV heads, MLP 4,864), at most six 768 tiles.
                let (projector, embed) = match projector(896, "linear") {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                let mut dims = sam(None, 896);
                dims.sam_image = 1024;
                return Some(Ok(dims.encoder_v2((24, 896, 14, 2, 4864), projector, embed, 6)));
            }
            let name = vc.get("model_name").and_then(Value::as_str).unwrap_or("");
            let ocr = root
                .get("architectures")
                .and_then(Value::as_array)
                .is_some_and(|a| a.iter().any(|c| c.as_str() == Some("DeepseekOCRForCausalLM")));
            // vLLM's `VisionEncoderConfig` names timm's SigLIP when the config names nothing.
            if name.starts_with("siglip") || name.starts_with("vit_so400m") || (name.is_empty() && !ocr) {
                // DeepSeek-VL2 (vLLM's `deepseek_vl2.py`): timm's `vit_so400m_patch14_siglip_384`
                // whatever the vision config says — 27 blocks of 1,152, MLPs of 4,304, patches of
                // 14 at 384 pixels, its attention-pooling head kept (`num_classes=0` drops only
                // the classifier): 428,225,600 parameters in timm 1.0.31 —, the projector of
                // `projector_config` and the learned newline and view separator (text width).
                // Its processor: a 384 global view and ⌈side / 384⌉² tiles of 384 (the square
                // candidates of `candidate_resolutions`), each 27 patches a side merged 2 × 2
                // after padding to 14, a newline a row, a separator between the views.
                // `MlpProjectorConfig`'s defaults: two GELU-separated linears over 2 × 2 patches.
                let (projector, embed) = match projector(1152, "downsample_mlp_gelu") {
                    Ok(x) => x,
                    Err(e) => return Some(Err(e)),
                };
                let t = Tower::siglip_with(&empty, (1152, 4304, 27, 14, 384));
                let (h, i) = (t.h, t.i);
                let head = h + 3 * h * h + 3 * h + h * h + h + 2 * h + 2 * h * i + i + h;
                let tile = t.image;
                let max_tiles = root
                    .get("candidate_resolutions")
                    .and_then(Value::as_array)
                    .and_then(|c| {
                        c.iter()
                            .filter_map(|r| {
                                let r = r.as_array()?;
                                Some(r.first()?.as_u64()? / tile * (r.get(1)?.as_u64()? / tile))
                            })
                            .max()
                    })
                    .unwrap_or(9)
                    .max(1);
                let per_side = (tile / t.patch).div_ceil(2);
                let mut e = t.encoder(
                    "siglip",
                    head + projector + 2 * embed,
                    2,
                    TokenRule::GlobalLocal {
                        global: per_side,
                        tile,
                        per_side,
                        max_tiles,
                        newlines: true,
                        ceil_tiles: true,
                    },
                    None,
                );
                e.largest = tile * max_tiles.isqrt().max(1);
                return Some(Ok(e));
            }
            let width = vc.get("width");
            let clip =
                match (width.and_then(|w| w.get("sam_vit_b")), width.and_then(|w| w.get("clip-l-14-224"))) {
                    (Some(_), Some(c)) if name == "deeplip_b_l" => c,
                    _ => {
                        return Some(Err(if name.is_empty() {
                            "deepseek_vl_v2 vision".into()
                        } else {
                            name.into()
                        }));
                    }
                };
            let mut dims = sam(width.and_then(|w| w.get("sam_vit_b")), 1024);
            let cw = g(clip, "width", 1024);
            dims.clip_width = cw;
            dims.clip_layers = g(clip, "layers", 24);
            dims.clip_mlp = 4 * cw;
            dims.clip_image = g(clip, "image_size", 224);
            dims.clip_patch = g(clip, "patch_size", 14).max(1);
            let (projector, embed) = match projector(2 * cw, "linear") {
                Ok(x) => x,
                Err(e) => return Some(Err(e)),
            };
            // vLLM's DeepSeek-OCR processor: at most six 640 tiles.
            dims.encoder(projector, embed, 6)
        }
        // Muse Spark's vision model is Muse Glimmer's.
        "muse_glimmer" | "muse_spark" => {
            v?;
            // Meta's Muse Glimmer (vLLM's `muse_glimmer.py`, transformers' `MuseGlimmerModel`): a
            // bias-free linear over 2 frames of 3 × 14 × 14 pixels, a `pos_emb_height ×
            // pos_emb_width` position table, a LayerNorm before and after LayerNorm blocks with
            // biased q, k, v, output and MLP; 2 × 2 patches shuffled into `out_hidden_size`, the
            // adapter's two bias-free linears `projector_hidden_size` wide and the bias-free
            // projection to the text width.
            let (h, i, depth) =
                (n("hidden_size", 1536), n("intermediate_size", 8960), n("num_hidden_layers", 50));
            let (p, t, m) = (n("patch_size", 14), n("patch_temporal", 2), n("merge_size", 2).max(1));
            let positions = n("pos_emb_height", 32) * n("pos_emb_width", 32);
            let top = |k: &str, d: u64| root.get(k).and_then(Value::as_u64).unwrap_or(d);
            let (out, ph) = (top("out_hidden_size", h * m * m), top("projector_hidden_size", 4096));
            let block_mat = 4 * h * h + 2 * h * i;
            let block_other = 2 * h + 2 * h + 4 * h + i + h;
            Encoder {
                modality: Modality::Image,
                kind: if outer == "muse_spark" { "muse_spark".into() } else { "muse_glimmer".into() },
                layers: depth,
                hidden: h,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: t * 3 * p * p * h
                    + positions * h
                    + depth * block_other
                    + 4 * h
                    + out * ph
                    + ph * ph
                    + ph * text_hidden,
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                // The processor's cap: 4,096 tokens of 28 × 28 pixels (`max_image_tokens`), a
                // 1,792² square.
                largest: 64 * p * m,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "ernie4_5_vl_moe" | "ernie4_5_moe_vl" => {
            v?;
            // ERNIE 4.5 VL (vLLM's `ernie45_vl.py`, transformers' `Ernie4_5_VLMoe`): Qwen2-VL's
            // ViT without a temporal patch (a bias-free linear over 3 × 14 × 14 pixels), LayerNorm
            // blocks with biased qkv, output and MLP, a final LayerNorm; then the resampler: 2 × 2
            // patches through a biased linear pair and a LayerNorm, the same for 2 frames of a
            // video (`use_temporal_conv`, always built by transformers), a biased linear to the
            // text width and an RMS norm. The hub names the width `embed_dim` and the MLP
            // `mlp_ratio`; transformers `hidden_size` and `intermediate_size`.
            let e = vc.get("embed_dim").and_then(Value::as_u64).unwrap_or(n("hidden_size", 1280));
            let i = vc.get("intermediate_size").and_then(Value::as_u64).unwrap_or(e * n("mlp_ratio", 4));
            let (depth, p, c) = (n("depth", 32), n("patch_size", 14), n("in_channels", 3));
            let top = |k: &str| root.get(k).and_then(Value::as_u64);
            let m = top("spatial_conv_size").unwrap_or(n("spatial_merge_size", 2)).max(1);
            let tm = top("temporal_conv_size").unwrap_or(n("temporal_merge_size", 2)).max(1);
            let pixel = top("pixel_hidden_size").unwrap_or(e);
            let block_mat = 3 * e * e + e * e + 2 * e * i;
            let block_other = 4 * e + 3 * e + e + i + e;
            let (sd, td) = (pixel * m * m, pixel * m * m * tm);
            let spatial = 2 * (sd * sd + sd) + 2 * sd;
            let temporal = (td * sd + sd + sd * sd + sd + 2 * sd) * flag(root, "use_temporal_conv", true);
            let resampler = spatial + temporal + sd * text_hidden + text_hidden + text_hidden;
            Encoder {
                modality: Modality::Image,
                kind: "ernie4_5_vl".into(),
                layers: depth,
                hidden: e,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: c * p * p * e + depth * block_other + 2 * e + resampler,
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                // The processor's largest image: 28 × 28 × 6,177 pixels (transformers'
                // `Ernie4_5_VLMoeImageProcessor` `longest_edge`), about 2,200².
                largest: 2200,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "paddleocr_vl" => {
            v?;
            // PaddleOCR-VL (transformers 5.24 `PaddleOCRVisionModel`): SigLIP so400m at 384 pixels,
            // patches of 14, its positions interpolated to each image; the projector merges 2 × 2
            // patches through a LayerNorm and two biased linears.
            let t = Tower::siglip_with(vc, (1152, 4304, 27, 14, 384));
            let m = n("spatial_merge_size", 2).max(1);
            let d = t.h * m * m;
            let projector = 2 * t.h + d * d + d + d * text_hidden + text_hidden;
            let mut e = t.encoder("paddleocr_vl", projector, m, TokenRule::NearestGrid, None);
            // The processor's `max_pixels`: 2,822,400 = 1,680² (PaddleOCR-VL's
            // preprocessor_config.json).
            e.largest = 1680;
            e
        }
        "lfm2_vl" => {
            v?;
            // LFM2-VL (`Lfm2VlModel`): a SigLIP 2 NaFlex tower (its pooling head built when
            // `vision_use_head`) and the projector: a pixel unshuffle by `downsample_factor`, a
            // LayerNorm (`projector_use_layernorm`) and two linears `projector_hidden_size` wide
            // (biased with `projector_bias`).
            let t = Tower::siglip_with(vc, (768, 3072, 12, 16, 256));
            let (h, i) = (t.h, t.i);
            let head = if flag(vc, "vision_use_head", true) == 1 {
                h + 3 * h * h + 3 * h + h * h + h + 2 * h + 2 * h * i + i + h
            } else {
                0
            };
            let f = root.get("downsample_factor").and_then(Value::as_u64).unwrap_or(2).max(1);
            let d = h * f * f;
            let ph = root.get("projector_hidden_size").and_then(Value::as_u64).unwrap_or(2560);
            let bias = flag(root, "projector_bias", true);
            let projector = 2 * d * flag(root, "projector_use_layernorm", true)
                + d * ph
                + ph * bias
                + ph * text_hidden
                + text_hidden * bias;
            // Tiles of 512 pixels, 256 tokens each (`Lfm2VlImageProcessor`: `tile_size`,
            // `max_image_tokens`), at most 10 and a thumbnail.
            let mut e = t.encoder(
                "siglip2",
                head + projector,
                f,
                TokenRule::GridTiles { tile: 512, per_tile: 256, max_tiles: 10 },
                None,
            );
            e.largest = 4 * 512;
            e
        }
        // NVIDIA's Nemotron Nano VL / Nemotron 3 Nano Omni: the C-RADIO tower (transformers 5.24
        // `RadioModel`) and an RMS-normed two-linear projector over a pixel shuffle.
        _ if kind == "radio" => {
            // Its position table covers `max_img_size` a side; class and register tokens; bias-free
            // image and video patch projections; LayerNorm blocks with biased attention and MLP
            // and two layer-scale vectors; no final norm; the two stored summary indices.
            let (h, layers, p, c) = (
                n("hidden_size", 1280),
                n("num_hidden_layers", 32),
                n("patch_size", 16),
                n("num_channels", 3),
            );
            let ratio = vc.get("mlp_ratio").and_then(Value::as_f64).unwrap_or(4.0);
            let i = (h as f64 * ratio) as u64;
            let side = n("max_img_size", 2048) / p.max(1);
            let tokens = n("num_cls_tokens", 3) + n("num_registers", 7);
            let video = n("video_temporal_patch_size", 2);
            let summary = vc.get("summary_idxs").and_then(Value::as_array).map_or(2, |a| a.len() as u64);
            let other = summary
                + side * side * h
                + tokens * h
                + c * p * p * h
                + c * p * p * video * h
                + layers * (4 * h + 4 * h + 2 * h + i + h);
            let r = root
                .get("downsample_ratio")
                .and_then(Value::as_f64)
                .filter(|x| *x > 0.0)
                .map_or(2, |x| libm::round(1.0 / x) as u64)
                .max(1);
            let d = h * r * r;
            let ph = root.get("projector_hidden_size").and_then(Value::as_u64).unwrap_or(4096);
            let projector = d + d * ph + ph * text_hidden;
            // 512-pixel tiles, 256 tokens each after the shuffle, at most 12 and a thumbnail.
            let tile = root.get("force_image_size").and_then(Value::as_u64).unwrap_or(512);
            let per_tile = (tile / p.max(1) / r) * (tile / p.max(1) / r);
            Encoder {
                modality: Modality::Image,
                kind: "radio".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (4 * h * h + 2 * h * i),
                other_params: other + projector,
                patch: p,
                merge: r,
                tokens: TokenRule::GridTiles { tile, per_tile, max_tiles: 12 },
                largest: 4 * tile,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        // HunYuan V4 VL keeps the tower with a shorter merger.
        "hunyuan_vl" | "hy_v4_vl" => {
            v?;
            // HunyuanOCR / HunYuan-VL (transformers 5.24 `HunYuanVLVisionTransformer`): SigLIP-style
            // blocks (biased attention and MLP, two LayerNorms), a biased patch convolution, a
            // position table of `max_vit_seq_len + 1`, no final norm; the patch merger: an RMS
            // norm, a biased m × m convolution to 2h, a biased 1 × 1 convolution to `h·m²`, a
            // biased linear into `out_hidden_size`, an RMS norm, and four learned marker vectors
            // (a row's newline `h·m²` wide; begin, end and separator in the text width).
            let (h, i, layers) =
                (n("hidden_size", 1152), n("intermediate_size", 4304), n("num_hidden_layers", 27));
            let (p, c, m) = (n("patch_size", 16), n("num_channels", 3), n("spatial_merge_size", 2));
            let out = n("out_hidden_size", text_hidden);
            let positions = n("max_vit_seq_len", 16384) + 1;
            let d = h * m * m;
            // HunYuan V4 VL's (`HYV4VLPatchMerger`): the RMS norm, a biased m × m convolution
            // straight to `out_hidden_size`, a biased 1 × 1 one, and the row's newline.
            let merger = if outer == "hy_v4_vl" {
                h + d * out + out + out * out + out + out
            } else {
                h + 2 * h * h * m * m + 2 * h + d * 2 * h + d + d * out + out + out + d + 3 * out
            };
            Encoder {
                modality: Modality::Image,
                kind: outer.into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (4 * h * h + 2 * h * i),
                other_params: c * p * p * h + h + positions * h + layers * (9 * h + i) + merger,
                patch: p,
                merge: m,
                // Images scaled to at most `max_image_size` a side; a newline token ends each row.
                tokens: TokenRule::RowBreaks { longest_edge: n("max_image_size", 2048) },
                largest: n("max_image_size", 2048),
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "dots3_note" => {
            v?;
            match dots3_vit(vc, text_hidden) {
                Ok(e) => e,
                Err(why) => return Some(Err(format!("dots3_note vision ({why})"))),
            }
        }
        "inkling_mm_model" => {
            // Inkling's patch encoder (vLLM 0.34 `inkling/common/towers.py` `HMLPPatchEncoder`):
            // no attention, `n_layers` bias-free linears through the scales `hmlp_scales` plans,
            // an RMS norm after each but the last, a final RMS norm of the text width. Plain
            // linears: whole on every GPU. 40-pixel patches of two frames, 4 layers into 4,096:
            // 64,080,384 parameters (Inkling-Small).
            v?;
            let (p, t, c, layers) =
                (n("patch_size", 40), n("temporal_patch_size", 2), n("n_channels", 3), n("n_layers", 4));
            let d = n("decoder_dmodel", text_hidden);
            if !(2..=1024).contains(&p)
                || !(1..=64).contains(&t)
                || !(1..=16).contains(&c)
                || !(1..=32).contains(&layers)
            {
                return Some(Err(format!(
                    "{outer} vision (its patch, frames, channels or layers are not real sizes)"
                )));
            }
            let scales = hmlp_scales(t, p, layers, c);
            let (mut linears, mut norms, mut widest) = (0u64, 0u64, 0u64);
            for (i, w) in scales.windows(2).enumerate() {
                let (a, b) = (w[0], w[1]);
                let shuffle = (b.0 / a.0.max(1)) * (b.1 / a.1.max(1)) * (b.1 / a.1.max(1));
                let out = if i as u64 + 1 == layers { d } else { b.2 };
                linears += a.2 * shuffle * out;
                widest = widest.max(a.2 * shuffle).max(out);
                if i as u64 + 1 < layers {
                    norms += b.2;
                }
            }
            let final_norm =
                if vc.get("use_vision_norm").and_then(Value::as_bool).unwrap_or(true) { d } else { 0 };
            Encoder {
                modality: Modality::Image,
                kind: "inkling_hmlp".into(),
                layers,
                hidden: d,
                intermediate: widest,
                block_params: linears,
                other_params: norms + final_norm,
                patch: p,
                merge: 1,
                // vLLM scales the long edge by 2 unless the processor says otherwise, up to
                // 2,048 pixels (the processor's cap on upscaling).
                tokens: TokenRule::UpscaledPatches { upscale: 2, max_long_edge: 2048 },
                largest: 2048,
                fixed_patches: None,
                whole_in_vllm: true,
                vllm_buffers: 0,
            }
        }
        "deepseek_v41" => {
            // DeepSeek V4.1's tower (vLLM 0.34 `deepseek_v4/common/vision.py`): a biased patch
            // linear, RMS-normed blocks with a biased fused qkv and output, a bias-free gated SiLU
            // MLP (`w1` both halves, `w2`), a final norm, 2-D rotary positions (no table); the
            // aligner unfolds `downsample_ratio²` patches into a biased linear to the text width,
            // GELU, a second biased linear; the start, end and newline embeddings of the text
            // width. 32 blocks of 1,024: 485,268,480 parameters, the checkpoint's 970,536,960
            // bytes of `vision.*`, `aligner.*` and image tokens.
            if n("num_hidden_layers", 0) == 0 {
                return None;
            }
            let (h, i, layers) =
                (n("hidden_size", 1024), n("intermediate_size", 2816), n("num_hidden_layers", 0));
            let (p, m) = (n("patch_size", 14), n("downsample_ratio", 3));
            let min_side = n("min_pixels", 295_936).isqrt();
            let max_tokens = n("max_image_tokens", 1024);
            let t = text_hidden;
            Encoder {
                modality: Modality::Image,
                kind: outer.into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (4 * h * h + 3 * h * i),
                other_params: layers * (3 * h + h + 2 * h)
                    + h
                    + 3 * p * p * h
                    + h
                    + t * h * m * m
                    + t
                    + t * t
                    + t
                    + 3 * t,
                patch: p,
                merge: m,
                tokens: TokenRule::FramedRows { min_side, max_tokens },
                // The shrink caps every image's tokens: the largest is one the cap binds.
                largest: 4096,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        // The hub config names the same tower `clip_vision_model`.
        _ if kind == "minimax_m3_vl_vision" || outer == "minimax_m3_vl" => {
            // MiniMax-M3's vision tower (transformers 5.24 `MiniMaxM3VLVisionModel`): a bias-free
            // Conv3d patch embedding, a pre-LayerNorm, CLIP-style blocks (biased attention and
            // MLP, two LayerNorms), no final norm; the projector: two biased linears for each
            // patch (`projector_hidden_size` wide) and two for the 2 × 2 merged patches
            // (`merged_hidden_size` in).
            let (h, i, layers) =
                (n("hidden_size", 1280), n("intermediate_size", 5120), n("num_hidden_layers", 32));
            let (p, t, c, m) = (
                n("patch_size", 14),
                n("temporal_patch_size", 2),
                n("num_channels", 3),
                n("spatial_merge_size", 2),
            );
            let ph = root.get("projector_hidden_size").and_then(Value::as_u64).unwrap_or(6144);
            let merged = root.get("merged_hidden_size").and_then(Value::as_u64).unwrap_or(ph * m * m);
            let text = text_hidden;
            let projector = h * ph + ph + ph * text + text + merged * ph + ph + ph * text + text;
            Encoder {
                modality: Modality::Image,
                kind: "minimax_m3_vl_vision".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (4 * h * h + 2 * h * i),
                other_params: c * t * p * p * h + 2 * h + layers * (9 * h + i) + projector,
                patch: p,
                merge: m,
                // One token per merged patch of the resized image (Qwen2-VL's grid).
                tokens: TokenRule::NearestGrid,
                largest: n("image_size", 2016),
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        _ if kind == "molmo2_vision" => {
            // Molmo 2 (transformers 5.24 `Molmo2VisionModel` and `Molmo2Adapter`): SigLIP-style
            // blocks (biased attention and MLP, two LayerNorms), a biased linear patch embedding,
            // a `num_position_embeddings` table, no final norm; the adapter pools 2 × 2 patches
            // with one attention over the features of its `vision_feature_layer` layers
            // concatenated (biased q/k/v from that width, biased output), then a bias-free gated
            // MLP into the text width.
            let (h, i, layers) =
                (n("hidden_size", 1152), n("intermediate_size", 4304), n("num_hidden_layers", 25));
            let (p, c) = (n("patch_size", 14), n("num_channels", 3));
            let positions = n("num_position_embeddings", 729);
            let ad = root.get("adapter_config").filter(|a| a.as_object().is_some()).unwrap_or(&empty);
            let an = |k: &str, d: u64| ad.get(k).and_then(Value::as_u64).unwrap_or(d);
            let feats =
                ad.get("vision_feature_layer").and_then(Value::as_array).map_or(2, |l| l.len() as u64);
            let (ah, ai) = (an("hidden_size", h), an("intermediate_size", 18944));
            let out = an("text_hidden_size", text_hidden);
            let b = flag(ad, "attention_bias", true);
            let pooling = 3 * (ah * h * feats + ah * b) + ah * ah + ah * b;
            let projector = 2 * ai * ah + out * ai;
            // Crops of `num_position_embeddings` patches (27 × 27 at 14 pixels: 378), pooled 2 × 2.
            let side = positions.isqrt();
            let per_tile = side.div_ceil(2) * side.div_ceil(2);
            Encoder {
                modality: Modality::Image,
                kind: "molmo2_vision".into(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (4 * h * h + 2 * h * i),
                other_params: positions * h + c * p * p * h + h + layers * (9 * h + i) + pooling + projector,
                patch: p,
                merge: 2,
                tokens: TokenRule::GridTiles { tile: side * p, per_tile, max_tiles: 8 },
                largest: 3 * side * p,
                fixed_patches: Some(positions),
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        // Step-3.7-Flash's vision model (transformers 5.24 `Step3p7VisionModel`, vLLM 0.34's
        // `PerceptionEncoder` in `step_vl.py`) and Step 5's (the same tower, which
        // `Step5ForConditionalGeneration` builds as Step-3.7 does, under `PerceptionEncoderConfig`'s
        // key names `width`, `layers`, `mlp_ratio`): a bias-free patch convolution, a position
        // table of the view's patches, a pre-LayerNorm, LayerNorm blocks with biased attention and
        // MLP and two layer-scale vectors, then two biased 3 × 3 convolutions doubling the width
        // twice (each halving the grid), and a linear projector into the text width (biased with
        // `projector_bias`). Images as the Step-3 VL processor cuts them (both runtimes' processors:
        // a 728-pixel global view, 504-pixel crops).
        // Inkling 2's vision model (transformers 5.24 `Inkling2VisionModel`): a bias-free patch
        // convolution, a `posemb_grid_size²` position table (interpolated to each image), a class
        // token and its position, a pre-LayerNorm, CLIP-style blocks with biased attention and MLP
        // and two layer scales, then the merger: `merge² · D → projection_hidden_dim → text`, biased
        // with `projector_bias`. 327,693,312 parameters at the class defaults.
        _ if kind == "inkling2_vision" => {
            let (d, layers, p, c) = (
                n("hidden_size", 1024),
                n("num_hidden_layers", 23),
                n("patch_size", 20),
                n("num_channels", 3),
            );
            let ratio = vc.get("mlp_ratio").and_then(Value::as_f64).unwrap_or(4.0);
            if !(ratio.is_finite() && ratio > 0.0 && ratio <= 64.0) {
                return Some(Err(format!("{kind} vision (`mlp_ratio` is not a real ratio)")));
            }
            let i = vc.get("intermediate_size").and_then(Value::as_u64).unwrap_or((d as f64 * ratio) as u64);
            let (m, g, proj) =
                (n("spatial_merge_size", 2), n("posemb_grid_size", 32), n("projection_hidden_dim", 4096));
            let out = n("text_hidden_size", text_hidden);
            let bias = flag(vc, "projector_bias", false);
            let merger = m * m * d * proj + proj * out + bias * (proj + out);
            Encoder {
                modality: Modality::Image,
                kind: kind.clone(),
                layers,
                hidden: d,
                intermediate: i,
                block_params: layers * (4 * d * d + 2 * d * i),
                other_params: c * p * p * d + g * g * d + 4 * d + layers * (i + 11 * d) + merger,
                patch: p,
                merge: m,
                tokens: TokenRule::PaddedGrid,
                // The processor sets no largest image; a 2,048-pixel side stands in.
                largest: 2048,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        _ if kind == "step3p5_vision" || kind == "perception_encoder" => {
            let pick = |keys: [&str; 2], d: u64| {
                vc.get(keys[0]).or(vc.get(keys[1])).and_then(Value::as_u64).unwrap_or(d)
            };
            let h = pick(["hidden_size", "width"], 1536);
            let layers = pick(["num_hidden_layers", "layers"], 47);
            let (p, c, image) = (n("patch_size", 14), n("num_channels", 3), n("image_size", 728));
            let i = match (vc.get("intermediate_size").and_then(Value::as_u64), vc.get("mlp_ratio")) {
                (Some(i), _) => i,
                (None, Some(r)) => match r.as_f64().filter(|r| r.is_finite() && *r > 0.0 && *r <= 64.0) {
                    // `int(width × mlp_ratio)`, as vLLM sizes the MLP.
                    Some(r) => (h as f64 * r) as u64,
                    None => return Some(Err(format!("{kind} vision (`mlp_ratio` is not a real ratio)"))),
                },
                (None, None) => h * 35 / 6,
            };
            let grid = image / p.max(1);
            let positions = n("max_position_embeddings", grid * grid);
            let down = 2 * h * h * 9 + 2 * h + 4 * h * 2 * h * 9 + 4 * h;
            let projector = 4 * h * text_hidden + text_hidden * flag(root, "projector_bias", false);
            // Two stride-2 convolutions: ⌈n / 2⌉ twice.
            let out = |px: u64| (px / p.max(1)).div_ceil(2).div_ceil(2);
            let crop = 504;
            Encoder {
                modality: Modality::Image,
                kind: kind.clone(),
                layers,
                hidden: h,
                intermediate: i,
                block_params: layers * (4 * h * h + 2 * h * i),
                other_params: c * p * p * h
                    + positions * h
                    + 2 * h
                    + layers * (11 * h + i)
                    + down
                    + projector,
                patch: p,
                merge: 4,
                tokens: TokenRule::StepCrops {
                    view: image,
                    crop,
                    global: out(image) * out(image),
                    per_crop: out(crop) * out(crop),
                    max_side: 3024,
                },
                largest: 3024,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        // MiniCPM-V 4.7 and MiniCPM-OCR keep 4.6's tower and mergers.
        "minicpmv4_6" | "minicpmv4_7" | "minicpm_ocr" => {
            v?;
            // MiniCPM-V 4.6 (transformers 5.24 `MiniCPMV4_6VisionModel` and `MiniCPMV4_6Merger`): a
            // SigLIP tower with, inside it, a window-attention merger of 2 × 2 patches (attention,
            // a LayerNorm, then a LayerNorm and a 4×-wide two-linear MLP back to the tower's width;
            // built whatever the `downsample_mode`), and the merger into the language model:
            // `merger_times` LayerNorm + two-linear MLPs over 2 × 2 patches, the last one into the
            // text width.
            let t = Tower::siglip_with(vc, (768, 3072, 12, 16, 224));
            let h = t.h;
            let d = 4 * h;
            let vit_merger = 4 * h * h + 4 * h + 2 * h + 2 * d + d * 4 * d + 4 * d + 4 * d * h + h;
            let mlp = |out: u64| 2 * d + d * d + d + d * out + out;
            let times = root.get("merger_times").and_then(Value::as_u64).unwrap_or(1).clamp(1, 8);
            let merger = (times - 1) * mlp(h) + mlp(text_hidden);
            // Slices of the model's `image_size` (448): 2 × 2 merged twice with "16x" (4 × 4 fewer
            // tokens), once with "4x"; at most 9 slices and the whole image.
            let side = root.get("image_size").and_then(Value::as_u64).unwrap_or(448);
            let per_side = side / t.patch.max(1);
            let down = if root.get("downsample_mode").and_then(Value::as_str) == Some("4x") { 2 } else { 4 };
            let per_tile = (per_side / down) * (per_side / down);
            let mut e = t.encoder(
                "minicpmv4_6",
                vit_merger + merger,
                down,
                TokenRule::GridTiles { tile: side, per_tile, max_tiles: 9 },
                None,
            );
            e.largest = 4 * side;
            e
        }
        "glm_ocr" => {
            v?;
            // GLM-OCR's vision model (transformers 5.24 `GlmOcrVisionModel`): GLM-4.1V's tower
            // without its position table, with biased attention and MLP, per-head q/k RMS norms and
            // an MLP `intermediate_size` wide; the merger's gated MLP is `out_hidden_size ×
            // in_channels` wide.
            let (h, i, depth) = (n("hidden_size", 1024), n("intermediate_size", 4096), n("depth", 24));
            let o = n("out_hidden_size", 1536);
            let (p, t, c, m) = (
                n("patch_size", 14),
                n("temporal_patch_size", 2),
                n("in_channels", 3),
                n("spatial_merge_size", 2),
            );
            let hd = h / n("num_heads", 16).max(1);
            let block_mat = 4 * h * h + 3 * h * i;
            let block_other = 2 * h + 3 * h * flag(vc, "attention_bias", true) + h + 2 * hd + 2 * i + h;
            let merger = o * o + 2 * o + 3 * o * (o * c);
            Encoder {
                modality: Modality::Image,
                kind: "glm_ocr".into(),
                layers: depth,
                hidden: h,
                intermediate: i,
                block_params: depth * block_mat,
                other_params: c * t * p * p * h + h + depth * block_other + h + h * m * m * o + o + merger,
                patch: p,
                merge: m,
                tokens: TokenRule::NearestGrid,
                // GLM-4.1V's pixel budget (its image processor), 4,844 pixels a side.
                largest: 4844,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }
        }
        "internvl" => {
            v?;
            // InternViT (`InternVLVisionModel`: a biased patch convolution, a class token and
            // learned positions, layer-scale factors in every block) and InternVL's projector
            // (pixel shuffle by 1/downsample_ratio, a LayerNorm and two biased linears).
            let t = Tower::internvit(vc);
            let text = text_hidden;
            let ratio = root.get("downsample_ratio").and_then(Value::as_f64).unwrap_or(0.5);
            let r = if ratio > 0.0 { libm::round(1.0 / ratio) as u64 } else { 1 };
            let d = t.h * r * r;
            let projector = 2 * d + d * text + text + text * text + text;
            let per_tile =
                root.get("image_seq_length").and_then(Value::as_u64).unwrap_or(t.grid() / (r * r).max(1));
            // The converted checkpoints' processors tile at the tower's resolution, at most 12
            // tiles (GotOcr2ImageProcessor's `max_patches`).
            t.encoder(
                "internvit",
                projector,
                r,
                TokenRule::GridTiles { tile: t.image, per_tile, max_tiles: 12 },
                Some(t.grid() + 1),
            )
        }
        "idefics3" | "smolvlm" => {
            v?;
            // Idefics3's SigLIP-style tower (biased patch convolution, learned positions, no
            // class token) and its connector: a pixel shuffle by `scale_factor` into one
            // bias-free linear.
            let t = Tower::siglip(vc);
            let text = text_hidden;
            let sf = root.get("scale_factor").and_then(Value::as_u64).unwrap_or(2).max(1);
            let per_tile = t.grid() / (sf * sf);
            // Every image is resized to the processor's longest edge (4 × the tower's
            // resolution by default) and cut into crops of the tower's size, plus a global one.
            let tokens = TokenRule::ResizedTiles { longest_edge: 4 * t.image, tile: t.image, per_tile };
            t.encoder(outer, t.h * sf * sf * text, sf, tokens, Some(t.grid()))
        }
        "phi4_multimodal" => {
            v?;
            // Phi-4-multimodal's SigLIP (so400m at 448 pixels) with its pooling head, built whole
            // though the features come from the second-to-last layer; the image projection (two
            // biased linears) and its two learned separator vectors.
            let t = Tower::siglip(vc);
            let (h, i) = (t.h, t.i);
            let head = h + 3 * h * h + 3 * h + h * h + h + 2 * h + 2 * h * i + i + h;
            let text = text_hidden;
            let projector = head + h * text + text + text * text + text + 2 * h;
            // Tokens: 2 × 2 pooling of 32 × 32 patches, 16 a side; up to 36 tiles (`dynamic_hd`).
            let per_side = t.grid().isqrt() / 2;
            let tokens = TokenRule::HdTiles { tile: t.image, per_side, max_tiles: 36 };
            t.encoder("siglip", projector, 2, tokens, Some(t.grid()))
        }
        "gemma3n" => {
            v?;
            // Gemma 3n's vision tower is a timm network named by `vision_config.architecture`;
            // its size is that network's, not the config's. The embedder (`embed_vision`): a
            // table of hard vision tokens, two RMS norms and a bias-free projection.
            let arch = vc.get("architecture").and_then(Value::as_str).unwrap_or("");
            let tower = timm_tower(arch).ok_or_else(|| format!("timm {arch}"));
            let tower = match tower {
                Ok(t) => t,
                Err(e) => return Some(Err(e)),
            };
            let (h, vocab) = (n("hidden_size", 2048), n("vocab_size", 128));
            let text = text_hidden;
            Encoder {
                modality: Modality::Image,
                kind: arch.into(),
                layers: 0,
                hidden: h,
                intermediate: 0,
                block_params: 0,
                other_params: tower + vocab * h + 2 * h + h * text,
                patch: 0,
                merge: 1,
                tokens: TokenRule::Fixed {
                    tokens: root.get("vision_soft_tokens_per_image").and_then(Value::as_u64).unwrap_or(256),
                },
                largest: 768,
                fixed_patches: None,
                // vLLM's gemma3n_mm builds both towers with transformers' `AutoModel.from_config`.
                whole_in_vllm: true,
                vllm_buffers: 0,
            }
        }
        _ => {
            v?;
            return Some(Err(if kind.is_empty() { format!("{outer} vision") } else { kind }));
        }
    };
    Some(Ok(enc))
}

/// The config a multimodal model's text model and encoders are read from: Qwen3-Omni
/// (`qwen3_omni_moe`) and Qwen2.5-Omni (`qwen2_5_omni`) keep them in `thinker_config` (its
/// `text_config`, `vision_config` and `audio_config`); every other model at the top.
pub(crate) fn thinker(root: &Value) -> &Value {
    match root.get("model_type").and_then(Value::as_str) {
        Some("qwen3_omni_moe" | "qwen2_5_omni") => {
            root.get("thinker_config").filter(|t| t.as_object().is_some()).unwrap_or(root)
        }
        _ => root,
    }
}

/// A speech-output stack the checkpoint holds beside its thinker: Qwen3-Omni's talker (an MoE
/// text model with its code predictor) and code2wav (the codec decoder), counted (`Ok`);
/// Qwen2.5-Omni's talker (a Qwen2-style text model) and token2wav (a DiT and a BigVGAN vocoder),
/// counted likewise; `Err` names a stack whose config cannot be read. transformers builds both when `enable_audio_output` is true (its default;
/// `enable_talker` of `Qwen3OmniMoeForConditionalGeneration` and
/// `Qwen2_5OmniForConditionalGeneration`); vLLM serves the thinker only (both classes map to
/// their `…ThinkerForConditionalGeneration`, whose loader skips the `talker.` and `code2wav.` or
/// `token2wav.` weights).
pub(crate) fn speech_output(root: &Value) -> Option<Result<SpeechOutput, String>> {
    let outer = root.get("model_type").and_then(Value::as_str)?;
    let on = root.get("enable_audio_output").and_then(Value::as_bool).unwrap_or(true);
    let vocoder = match outer {
        "qwen3_omni_moe" => "code2wav",
        "qwen2_5_omni" => "token2wav",
        _ => return None,
    };
    let talker = root.get("talker_config").filter(|_| on)?;
    let kind = format!("{outer} talker + {vocoder}");
    let empty = Value::Object(Vec::new());
    let sub = |k: &str| root.get(k).filter(|v| v.as_object().is_some()).unwrap_or(&empty);
    let counted = if outer == "qwen3_omni_moe" {
        (qwen3_omni_talker(talker), qwen3_omni_code2wav(sub("code2wav_config")))
    } else {
        (qwen2_5_omni_talker(talker), qwen2_5_omni_token2wav(sub("token2wav_config")))
    };
    Some(match counted {
        (Some(talker), Some(vocoder)) => Ok(SpeechOutput { kind, talker, vocoder }),
        _ => Err(kind),
    })
}

/// `Qwen2_5OmniTalkerForConditionalGeneration` (transformers 5.24): a Qwen2 text model (codec
/// embeddings `vocab × embedding_size`, layers with biased q/k/v, bias-free o and a gated MLP,
/// two RMS norms, the final norm), the projection from the thinker's width (`embedding_size →
/// hidden`, biased) and the codec head (`hidden × vocab`, bias-free).
fn qwen2_5_omni_talker(tc: &Value) -> Option<u64> {
    let h = sized(tc, "hidden_size", 3584)?;
    let e = sized(tc, "embedding_size", 3584)?;
    let i = sized(tc, "intermediate_size", 18944)?;
    let layers = sized(tc, "num_hidden_layers", 28)?;
    let heads = sized(tc, "num_attention_heads", 28)?;
    let kv = sized(tc, "num_key_value_heads", 4)?;
    let hd = sized(tc, "head_dim", 128)?;
    let vocab = sized(tc, "vocab_size", 8448)?;
    let attention = h * heads * hd + heads * hd + 2 * (h * kv * hd + kv * hd) + heads * hd * h;
    let layer = attention + 3 * h * i + 2 * h;
    let head =
        if tc.get("tie_word_embeddings").and_then(Value::as_bool).unwrap_or(false) { 0 } else { h * vocab };
    u64::try_from(vocab * e + layers * layer + h + e * h + h + head).ok()
}

/// `Qwen2_5OmniToken2WavModel` (transformers 5.24): the DiT (a timestep MLP from 256 sinusoids,
/// the codec embedding `(num_embeds + 1) × emb_dim`, the input projection with its ECAPA-TDNN
/// speaker encoder, blocks of an adaptive LayerNorm's `hidden → 6·hidden` modulation, biased
/// attention and a two-layer MLP of `ff_mult`, the final `hidden → 2·hidden` modulation and the
/// mel projection) and the BigVGAN vocoder (a 7-tap input convolution, one transposed
/// convolution per upsampling rate halving the width, per stage one AMP block per resblock
/// kernel — six convolutions and six SnakeBeta activations —, a SnakeBeta and a bias-free 7-tap
/// output convolution).
fn qwen2_5_omni_token2wav(c: &Value) -> Option<u64> {
    let empty = Value::Object(Vec::new());
    let sub = |k: &str| c.get(k).filter(|v| v.as_object().is_some()).unwrap_or(&empty);
    let (d, v) = (sub("dit_config"), sub("bigvgan_config"));
    let list = |cfg: &Value, k: &str, default: &[u128]| sized_list(cfg, k, default, 1 << 16);
    // The DiT.
    let h = sized(d, "hidden_size", 1024)?;
    let layers = sized(d, "num_hidden_layers", 22)?;
    let inner = sized(d, "num_attention_heads", 16)? * sized(d, "head_dim", 64)?;
    let ff = h * sized(d, "ff_mult", 2)?;
    let emb = sized(d, "emb_dim", 512)?;
    let mel = sized(d, "mel_dim", 80)?;
    let enc_emb = sized(d, "enc_emb_dim", 192)?;
    let enc_dim = sized(d, "enc_dim", 128)?;
    let channels = list(d, "enc_channels", &[256, 256, 256, 256, 768])?;
    let kernels = list(d, "enc_kernel_sizes", &[5, 3, 3, 3, 1])?;
    let attention_channels = sized(d, "enc_attention_channels", 64)?;
    let scale = sized(d, "enc_res2net_scale", 2)?.max(1);
    let se = sized(d, "enc_se_channels", 64)?;
    if channels.len() < 2 || kernels.len() != channels.len() {
        return None;
    }
    let conv = |i: u128, o: u128, k: u128| i * o * k + o;
    let mut ecapa = conv(mel, channels[0], kernels[0]);
    for b in 1..channels.len() - 1 {
        let (i, o, k) = (channels[b - 1], channels[b], kernels[b]);
        let res2net = (scale - 1) * conv(o / scale, o / scale, k);
        ecapa += conv(i, o, 1) + res2net + conv(o, o, 1) + conv(o, se, 1) + conv(se, o, 1);
    }
    let last = channels[channels.len() - 1];
    ecapa += conv(last, last, kernels[kernels.len() - 1])
        + conv(3 * last, attention_channels, 1)
        + conv(attention_channels, last, 1)
        + conv(2 * last, enc_dim, 1);
    let input = conv(mel + enc_dim + enc_emb + emb, h, 1) + ecapa;
    let time = conv(256, h, 1) + conv(h, h, 1);
    let codec = (sized(d, "num_embeds", 8193)? + 1) * emb;
    let block =
        conv(h, 6 * h, 1) + 3 * conv(h, inner, 1) + conv(inner, h, 1) + conv(h, ff, 1) + conv(ff, h, 1);
    let dit = time + codec + input + layers * block + conv(h, 2 * h, 1) + conv(h, mel, 1);
    // BigVGAN.
    let vmel = sized(v, "mel_dim", 80)?;
    let initial = sized(v, "upsample_initial_channel", 1536)?;
    let rates = list(v, "upsample_rates", &[5, 3, 2, 2, 2, 2])?;
    let up_kernels = list(v, "upsample_kernel_sizes", &[11, 7, 4, 4, 4, 4])?;
    let res_kernels = list(v, "resblock_kernel_sizes", &[3, 7, 11])?;
    if up_kernels.len() != rates.len() {
        return None;
    }
    let mut vocoder = conv(vmel, initial, 7);
    for (l, k) in up_kernels.iter().enumerate() {
        let (i, o) = (initial >> l, initial >> (l + 1));
        vocoder += conv(i, o, *k);
        vocoder += res_kernels.iter().map(|rk| 6 * conv(o, o, *rk) + 6 * 2 * o).sum::<u128>();
    }
    let out = initial >> rates.len();
    vocoder += 2 * out + 7 * out;
    u64::try_from(dit + vocoder).ok()
}

/// A number from `v` with its class default, widened so that products of four never overflow;
/// `None` past what a real model has.
fn sized(v: &Value, key: &str, default: u64) -> Option<u128> {
    let n = v.get(key).map_or(Some(default), Value::as_u64)?;
    (n <= 1 << 20).then_some(u128::from(n))
}

/// `Qwen3OmniMoeTalkerForConditionalGeneration` (transformers 5.24): the MoE text model
/// (`codec_embedding`, layers of Qwen3-MoE attention with q/k norms and a sparse block of routed
/// experts, a shared expert and its sigmoid gate, the final norm), `codec_head`, the text and
/// hidden projections (`thinker_hidden → intermediate → hidden`, biased) and the code predictor
/// (a Qwen3 dense model with `num_code_groups − 1` codec embeddings and as many heads). `None`
/// when the text config lacks `shared_expert_intermediate_size`: its class has no default for
/// it, and transformers cannot build the talker either.
fn qwen3_omni_talker(tc: &Value) -> Option<u64> {
    let flag = |v: &Value, k: &str| u128::from(flag(v, k, false));
    let empty = Value::Object(Vec::new());
    let sub = |k: &str| tc.get(k).filter(|v| v.as_object().is_some()).unwrap_or(&empty);
    let (t, cp) = (sub("text_config"), sub("code_predictor_config"));
    let h = sized(t, "hidden_size", 1024)?;
    let i = sized(t, "intermediate_size", 2048)?;
    let layers = sized(t, "num_hidden_layers", 20)?;
    let heads = sized(t, "num_attention_heads", 16)?;
    let kv = sized(t, "num_key_value_heads", 2)?;
    let hd = sized(t, "head_dim", u64::try_from(h / heads.max(1)).ok()?)?;
    let vocab = sized(t, "vocab_size", 3072)?;
    let experts = sized(t, "num_experts", 128)?;
    let mi = sized(t, "moe_intermediate_size", 384)?;
    let si = t.get("shared_expert_intermediate_size").and_then(Value::as_u64).filter(|n| *n <= 1 << 20)?;
    let si = u128::from(si);
    let bias = flag(t, "attention_bias");
    let attention = |h: u128, heads: u128, kv: u128, hd: u128, bias: u128| {
        2 * h * heads * hd + 2 * h * kv * hd + bias * (heads * hd + 2 * kv * hd + h) + 2 * hd
    };
    let moe = experts * h + experts * 3 * mi * h + 3 * h * si + h;
    let text_model = vocab * h + layers * (attention(h, heads, kv, hd, bias) + moe + 2 * h) + h;
    let head =
        if tc.get("tie_word_embeddings").and_then(Value::as_bool).unwrap_or(false) { 0 } else { h * vocab };
    let th = sized(tc, "thinker_hidden_size", 2048)?;
    let projections = 2 * (th * i + i + i * h + h);
    let ch = sized(cp, "hidden_size", 1024)?;
    let ci = sized(cp, "intermediate_size", 3072)?;
    let cl = sized(cp, "num_hidden_layers", 5)?;
    let cheads = sized(cp, "num_attention_heads", 16)?;
    let ckv = sized(cp, "num_key_value_heads", 8)?;
    let chd = sized(cp, "head_dim", 128)?;
    let cvocab = sized(cp, "vocab_size", 2048)?;
    let groups = sized(cp, "num_code_groups", 32)?.saturating_sub(1);
    let cbias = flag(cp, "attention_bias");
    let predictor =
        cl * (attention(ch, cheads, ckv, chd, cbias) + 3 * ch * ci + 2 * ch) + ch + 2 * groups * cvocab * ch;
    u64::try_from(text_model + head + projections + predictor).ok()
}

/// `Qwen3OmniMoeCode2Wav` (transformers 5.24): the code embedding (`codebook_size ×
/// num_quantizers` rows), the pre-transformer (sliding-window layers with two RMSNorms and two
/// layer scales, no q/k norms), an upsampling transposed convolution and ConvNeXt block per
/// `upsampling_ratios` entry, then the decoder: a causal convolution to `decoder_dim`, one block
/// per `upsample_rates` entry (SnakeBeta, a transposed convolution halving the width, three
/// residual units of SnakeBeta, a 7-tap and a 1-tap convolution), SnakeBeta and a 7-tap
/// convolution to one channel.
fn qwen3_omni_code2wav(c: &Value) -> Option<u64> {
    let h = sized(c, "hidden_size", 1024)?;
    let i = sized(c, "intermediate_size", 3072)?;
    let layers = sized(c, "num_hidden_layers", 8)?;
    let heads = sized(c, "num_attention_heads", 16)?;
    let kv = sized(c, "num_key_value_heads", 16)?;
    let hd = sized(c, "head_dim", u64::try_from(h / heads.max(1)).ok()?)?;
    let bias = u128::from(flag(c, "attention_bias", false));
    let codes = sized(c, "codebook_size", 2048)? * sized(c, "num_quantizers", 16)?;
    let d = sized(c, "decoder_dim", 1536)?;
    let list = |k: &str, default: &[u128]| sized_list(c, k, default, 1 << 10);
    let rates = list("upsample_rates", &[8, 5, 4, 3])?;
    let ratios = list("upsampling_ratios", &[2, 2])?;
    let attention = 2 * h * heads * hd + 2 * h * kv * hd + bias * (heads * hd + 2 * kv * hd + h);
    let transformer = layers * (attention + 3 * h * i + 4 * h) + h;
    let convnext = 7 * h + h + 2 * h + 8 * h * h + 4 * h + h + h;
    let upsample: u128 = ratios.iter().map(|f| h * h * f + h + convnext).sum();
    let unit = |o: u128| 8 * o * o + 6 * o;
    let mut decoder = h * d * 7 + d;
    for (k, r) in rates.iter().enumerate() {
        let (inp, out) = (d >> k, d >> (k + 1));
        decoder += 2 * inp + inp * out * 2 * r + out + 3 * unit(out);
    }
    let last = d >> rates.len();
    decoder += 2 * last + 7 * last + 1;
    u64::try_from(codes * h + transformer + upsample + decoder).ok()
}

/// A list of up to 16 numbers, each at most `max`, from `v` with its class default; `None` when
/// malformed or past what a real model has.
fn sized_list(v: &Value, key: &str, default: &[u128], max: u64) -> Option<Vec<u128>> {
    let l: Vec<u128> = match v.get(key) {
        None => default.to_vec(),
        Some(x) => x
            .as_array()?
            .iter()
            .map(|n| n.as_u64().filter(|n| *n <= max).map(u128::from))
            .collect::<Option<_>>()?,
    };
    (l.len() <= 16).then_some(l)
}

/// `true`/`false` config flags with their default.
fn flag(v: &Value, key: &str, default: bool) -> u64 {
    u64::from(v.get(key).and_then(Value::as_bool).unwrap_or(default))
}

/// Hidden states fed to the projector: one layer, or a list of them concatenated.
fn feature_layers(root: &Value) -> u64 {
    match root.get("vision_feature_layer").and_then(Value::as_array) {
        Some(a) if !a.is_empty() => a.len() as u64,
        _ => 1,
    }
}

/// LLaVA's projector: `w → text → text`, biased unless `multimodal_projector_bias` is false.
fn llava_projector(root: &Value, w: u64, text: u64) -> u64 {
    w * text + text * text + 2 * flag(root, "multimodal_projector_bias", true) * text
}

/// A ViT-style vision tower read from its config with its class's defaults.
struct Tower {
    layers: u64,
    h: u64,
    i: u64,
    patch: u64,
    image: u64,
    block: u64,
    other: u64,
}

impl Tower {
    fn keys(vc: &Value, defaults: (u64, u64, u64, u64, u64)) -> (u64, u64, u64, u64, u64, u64) {
        // InternVL writes `image_size` and `patch_size` as `[h, w]` pairs.
        let n =
            |k: &str, d: u64| vc.get(k).and_then(|v| v.as_u64().or_else(|| at(Some(v), &[0]))).unwrap_or(d);
        let (h, i, l, p, s) = defaults;
        (
            n("hidden_size", h),
            n("intermediate_size", i),
            n("num_hidden_layers", l),
            n("patch_size", p),
            n("image_size", s),
            n("num_channels", 3),
        )
    }

    /// Pixtral: bias-free convolution, RMS norms (`ln_pre` and two a block), a gated MLP.
    fn pixtral(vc: &Value) -> Tower {
        let (h, i, layers, p, image, c) = Tower::keys(vc, (1024, 4096, 24, 16, 1024));
        Tower {
            layers,
            h,
            i,
            patch: p,
            image,
            block: layers * (4 * h * h + 3 * h * i),
            other: c * p * p * h + h + 2 * h * layers,
        }
    }

    /// CLIP: class token, bias-free convolution, positions for every patch and the class
    /// token, pre and post LayerNorms, biased attention and a two-layer MLP.
    fn clip(vc: &Value) -> Tower {
        let (h, i, layers, p, image, c) = Tower::keys(vc, (768, 3072, 12, 32, 224));
        let grid = (image / p.max(1)) * (image / p.max(1));
        Tower {
            layers,
            h,
            i,
            patch: p,
            image,
            block: layers * (4 * h * h + 2 * h * i),
            other: h + c * p * p * h + (grid + 1) * h + 4 * h + layers * (9 * h + i),
        }
    }

    /// SigLIP as Idefics3 builds it: biased convolution, positions without a class token,
    /// biased attention and MLP, a post LayerNorm.
    fn siglip(vc: &Value) -> Tower {
        Tower::siglip_with(vc, (1152, 3072, 12, 32, 224))
    }

    /// SigLIP with another class's defaults (hidden, intermediate, layers, patch, image). SigLIP 2's
    /// NaFlex towers name `num_patches` positions rather than an image size (their patch
    /// embedding is a linear of the same shape as the convolution).
    fn siglip_with(vc: &Value, defaults: (u64, u64, u64, u64, u64)) -> Tower {
        let mut d = defaults;
        if let Some(n) = vc.get("num_patches").and_then(Value::as_u64) {
            d.4 = n.isqrt() * vc.get("patch_size").and_then(Value::as_u64).unwrap_or(d.3);
        }
        let (h, i, layers, p, image, c) = Tower::keys(vc, d);
        let grid = (image / p.max(1)) * (image / p.max(1));
        Tower {
            layers,
            h,
            i,
            patch: p,
            image,
            block: layers * (4 * h * h + 2 * h * i),
            other: c * p * p * h + h + grid * h + layers * (9 * h + i) + 2 * h,
        }
    }

    /// InternViT: class token (and mask token), biased convolution, learned positions, q/k/v
    /// biases when `attention_bias`, a biased output projection, q/k RMS norms over the whole
    /// width when `use_qk_norm`, LayerNorms or RMS norms, two layer-scale vectors a block, a
    /// final norm unless the features are mean-pooled.
    fn internvit(vc: &Value) -> Tower {
        let (h, i, layers, p, image, c) = Tower::keys(vc, (1024, 4096, 24, 14, 448));
        let f = |k: &str, d: bool| flag(vc, k, d);
        let grid = (image / p.max(1)) * (image / p.max(1));
        let norm = if vc.get("norm_type").and_then(Value::as_str) == Some("rms_norm") { h } else { 2 * h };
        let per_layer = 3 * h * f("attention_bias", false)
            + h
            + 2 * h * f("use_qk_norm", false)
            + i
            + h
            + 2 * norm
            + 2 * h;
        Tower {
            layers,
            h,
            i,
            patch: p,
            image,
            block: layers * (4 * h * h + 2 * h * i),
            other: h
                + h * f("use_mask_token", false)
                + c * p * p * h
                + h
                + (grid + 1) * h * f("use_absolute_position_embeddings", true)
                + layers * per_layer
                + norm * (1 - f("use_mean_pooling", true)),
        }
    }

    /// Patches per image at the tower's resolution.
    fn grid(&self) -> u64 {
        (self.image / self.patch.max(1)) * (self.image / self.patch.max(1))
    }

    /// The encoder with its projector. Its largest image: Pixtral's longest edge, InternVL's
    /// widest grid of tiles, else one image at the tower's resolution (the processor resizes
    /// every image to it).
    fn encoder(
        &self,
        kind: &str,
        projector: u64,
        merge: u64,
        tokens: TokenRule,
        fixed: Option<u64>,
    ) -> Encoder {
        let largest = match tokens {
            TokenRule::RowBreaks { longest_edge } => longest_edge,
            TokenRule::GridTiles { max_tiles, .. } | TokenRule::HdTiles { max_tiles, .. } => {
                (pos_side(max_tiles) + 1) * self.image
            }
            _ => self.image,
        };
        Encoder {
            modality: Modality::Image,
            kind: kind.into(),
            layers: self.layers,
            hidden: self.h,
            intermediate: self.i,
            block_params: self.block,
            other_params: self.other + projector,
            patch: self.patch,
            merge: merge.max(1),
            tokens,
            largest,
            fixed_patches: fixed,
            whole_in_vllm: false,
            vllm_buffers: 0,
        }
    }
}

/// Parameters of a timm vision network a config names by architecture (Gemma 3n's
/// `mobilenetv5_300m_enc`: 294,126,912 as timm 1.0.31 builds it, no buffers stored).
fn timm_tower(arch: &str) -> Option<u64> {
    match arch {
        "mobilenetv5_300m_enc" => Some(294_126_912),
        _ => None,
    }
}

/// The largest value each size an encoder reads may take: beyond them no real encoder exists,
/// and the counts' products stay far inside 64 bits (widths 2^16, layers and heads 2^10,
/// patches, kernels and factors 64, images 16,384 pixels, tables and token counts 2^20).
fn limit(key: &str) -> Option<u64> {
    Some(match key {
        "hidden_size"
        | "intermediate_size"
        | "out_hidden_size"
        | "embed_dim"
        | "projector_input_dim"
        | "projector_output_dim"
        | "vision_output_dim"
        | "vt_hidden_size"
        | "vt_intermediate_size"
        | "mm_hidden_size"
        | "text_hidden_size"
        | "d_model"
        | "encoder_ffn_dim"
        | "output_proj_dims"
        | "ext_pw_out_channel"
        | "depthwise_separable_out_channel"
        | "nemo_conv_channels"
        | "sscp_conv_channel_size"
        | "subsampling_conv_channels"
        | "head_dim"
        | "input_feat_size"
        | "num_mel_bins"
        | "input_size"
        | "nemo_final_size"
        | "downsample_hidden_size"
        | "width"
        | "projection_hidden_dim"
        | "output_dim" => 1 << 16,
        "depth"
        | "num_hidden_layers"
        | "vt_num_hidden_layers"
        | "encoder_layers"
        | "conf_num_hidden_layers"
        | "num_blocks"
        | "layers"
        | "heads"
        | "num_attention_heads"
        | "num_key_value_heads"
        | "conf_num_attention_heads"
        | "encoder_attention_heads" => 1 << 10,
        "patch_size"
        | "temporal_patch_size"
        | "in_channels"
        | "num_channels"
        | "spatial_merge_size"
        | "pooling_kernel_size"
        | "merge_kernel_size"
        | "conv_kernel_size"
        | "conf_conv_kernel_size"
        | "kernel_size"
        | "sscp_conv_kernel_size"
        | "sscp_conv_stride_size"
        | "depthwise_multiplier"
        | "time_reduction"
        | "downsample_rate"
        | "scale_factor"
        | "mlp_ratio" => 64,
        "image_size" => 1 << 14,
        // A learned position grid's side (Inkling 2's `posemb_grid_size`).
        "posemb_grid_size" => 1 << 10,
        "num_position_embeddings"
        | "position_embedding_size"
        | "max_source_positions"
        | "vocab_size"
        | "init_pos_emb_height"
        | "init_pos_emb_width"
        | "bias_max_distance"
        | "image_seq_length"
        | "mm_tokens_per_image"
        | "vision_soft_tokens_per_image"
        | "audio_soft_tokens_per_image" => 1 << 20,
        _ => return None,
    })
}

/// The first size of an encoder's config (or of the keys it reads at the top) beyond its
/// [`limit`], or a pixel-shuffle ratio below 1/64, or a language model wider than 2^18: such a
/// config is not counted (said), rather than overflowing or counted as nonsense.
fn out_of_range(root: &Value, config: &Value, text_hidden: u64) -> Option<String> {
    fn numbers(v: &Value, out: &mut Vec<u64>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| numbers(x, out)),
            _ => out
                .extend(v.as_u64().or_else(|| v.as_f64().filter(|f| *f > u64::MAX as f64).map(|_| u64::MAX))),
        }
    }
    if text_hidden > 1 << 18 {
        return Some(format!("a language model {text_hidden} wide"));
    }
    let top = ["spatial_merge_size", "image_seq_length", "scale_factor", "mm_tokens_per_image"];
    let top = top.iter().chain(&["vision_soft_tokens_per_image", "audio_soft_tokens_per_image"]);
    let entries = config
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.as_str(), v))
        .chain(top.filter_map(|k| root.get(k).map(|v| (*k, v))));
    for (key, v) in entries {
        let Some(max) = limit(key) else { continue };
        let mut found = Vec::new();
        numbers(v, &mut found);
        if let Some(n) = found.into_iter().find(|n| *n > max) {
            return Some(format!("`{key}` {n} is out of range"));
        }
    }
    for key in ["pixel_shuffle_ratio", "downsample_ratio"] {
        let ratio = config.get(key).or_else(|| root.get(key)).and_then(Value::as_f64);
        if ratio.is_some_and(|r| r > 0.0 && r < 1.0 / 64.0) {
            return Some(format!("`{key}` is out of range"));
        }
    }
    None
}

/// The blocks of Gemma's USM-style conformer (Gemma 3n, Gemma 4): two macaron feed-forwards
/// (4× wide), q/k/v/post and a relative-position projection, the light convolution module
/// (pointwise 2×, depthwise of `kernel` taps, pointwise), a per-dimension scale, nine RMS
/// norms and `stored` clipping bounds a block; no biases. Returns (the attention and
/// feed-forward matrices, everything else).
fn conformer_blocks(d: u64, layers: u64, heads: u64, kernel: u64, stored: u64) -> (u64, u64) {
    (layers * 20 * d * d, layers * (4 * d * d + d * kernel + d / heads.max(1) + 9 * d + stored))
}

/// Positions Llama 3.2 Vision's cross-attention layers attend for one image, as transformers
/// keeps them: every tile's patches and class token, padded to a multiple of 8 (1,608 a tile at
/// 560 pixels), for the processor's largest image (`max_num_tiles` tiles).
pub(crate) fn mllama_cross_tokens(root: &Value) -> u64 {
    let empty = Value::Object(Vec::new());
    let vc = root.get("vision_config").filter(|v| v.as_object().is_some()).unwrap_or(&empty);
    let n = |k: &str, d: u64| vc.get(k).and_then(Value::as_u64).unwrap_or(d);
    let (p, image) = (n("patch_size", 14).max(1), n("image_size", 448));
    let per_tile = ((image / p) * (image / p) + 1).next_multiple_of(8);
    n("max_num_tiles", 4).saturating_mul(per_tile)
}

/// The number at `path` inside nested lists (`[[3, 3], [3, 3]]`, `[128, 32]`).
fn at(v: Option<&Value>, path: &[usize]) -> Option<u64> {
    let mut v = v?;
    for &i in path {
        v = v.as_array()?.get(i)?;
    }
    v.as_u64()
}

/// Side of a square table of `n` positions (Gemma 4's position table), in patches.
fn pos_side(n: u64) -> u64 {
    libm::sqrt(n as f64) as u64
}

/// An audio tower the config describes, or why it is not counted (`Err` names the kind).
pub(crate) fn audio(root: &Value, text_hidden: u64) -> Option<Result<Encoder, String>> {
    let outer = root.get("model_type").and_then(Value::as_str).unwrap_or("");
    let root = thinker(root);
    let ac = root.get("audio_config").filter(|v| v.as_object().is_some())?;
    let kind = ac.get("model_type").and_then(Value::as_str).unwrap_or("").to_string();
    if let Some(why) = out_of_range(root, ac, text_hidden) {
        return Some(Err(format!("{} audio ({why})", if kind.is_empty() { outer } else { &kind })));
    }
    let n = |keys: &[&str], d: u64| keys.iter().find_map(|k| ac.get(k).and_then(Value::as_u64)).unwrap_or(d);
    match outer {
        "dots3_note" => Some(dots3_audio(ac, text_hidden).map_err(|why| format!("dots3_note audio ({why})"))),
        "inkling_mm_model" => {
            // Inkling's dMel audio input (vLLM 0.34 `towers.py` `InklingAudio`): an embedding of
            // `n_mel_bins × mel_vocab_size` rows of the text width (each frame sums its bins'
            // rows), an RMS norm. 20 tokens a second (50 ms hops), 12,000 at most (10 minutes).
            let d = n(&["decoder_dmodel"], text_hidden);
            let rows = n(&["n_mel_bins"], 80).saturating_mul(n(&["mel_vocab_size"], 16));
            let norm = if ac.get("use_audio_norm").and_then(Value::as_bool).unwrap_or(true) { d } else { 0 };
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "inkling_dmel".into(),
                layers: 0,
                hidden: d,
                intermediate: 0,
                block_params: 0,
                other_params: rows.saturating_mul(d).saturating_add(norm),
                patch: 0,
                merge: 1,
                tokens: TokenRule::PerSecond { per_ks: 20_000, whole_windows: false },
                largest: 600,
                fixed_patches: None,
                whole_in_vllm: true,
                vllm_buffers: 0,
            }))
        }
        "mimo_v2" => {
            // MiMo-V2.5's audio encoder (vLLM 0.34 `mimo_audio.py`): an embedding table a codec
            // channel (`speech_vocab_size` rows, one number for all or one per channel, of
            // `input_local_dim`), transformers' Qwen2 decoder layers over them (biased q, k, v;
            // `input_local_attn_heads` heads, as many KV heads), a final norm with
            // `add_post_norm`, and a bias-free projection of `group_size` frames (two layers, 4×
            // wide, or one). Plain modules: whole on every GPU; the Qwen2 model also builds its
            // default 151,936-row embedding, which the checkpoint never fills. About 6.25 tokens a
            // second (24 kHz, hop 240, two halvings, groups of `group_size`).
            let d = n(&["input_local_dim"], 1024);
            let channels = n(&["audio_channels"], 8);
            let rows: u64 = match ac.get("speech_vocab_size") {
                Some(Value::String(x)) => {
                    let list: Vec<u64> = x.split('-').filter_map(|r| r.trim().parse().ok()).collect();
                    match list.as_slice() {
                        [one] => one.saturating_mul(channels),
                        many if many.len() as u64 == channels => many.iter().sum(),
                        _ => return Some(Err("mimo_v2 audio (`speech_vocab_size` per channel)".into())),
                    }
                }
                Some(x) => x.as_u64().unwrap_or(1280).saturating_mul(channels),
                None => 1280u64.saturating_mul(channels),
            };
            let layers = n(&["input_local_layers"], 6);
            let f = n(&["input_local_intermediate_size"], 4 * d);
            let g = n(&["group_size"], 4);
            let out = n(&["out_hidden_size"], text_hidden);
            let layer = 4 * d * d + 3 * d + 3 * d * f + 2 * d;
            let post = if ac.get("add_post_norm").and_then(Value::as_bool).unwrap_or(false) { d } else { 0 };
            let projection = if n(&["projection_layers"], 2) >= 2 {
                4 * d * g * d * g + out * 4 * d * g
            } else {
                out * d * g
            };
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "mimo_v2_audio".into(),
                layers,
                hidden: d,
                intermediate: f,
                block_params: layers * (4 * d * d + 3 * d * f),
                other_params: rows * d + layers * (layer - 4 * d * d - 3 * d * f) + post + projection,
                patch: 0,
                merge: 1,
                tokens: TokenRule::PerSecond { per_ks: 6250, whole_windows: false },
                // Its segments: 6,000 mel frames, 60 seconds.
                largest: 60,
                fixed_patches: None,
                whole_in_vllm: true,
                vllm_buffers: 151_936u64.saturating_mul(d).saturating_mul(2),
            }))
        }
        "muse_spark" => {
            // Muse Spark's audio model (transformers 5.24 `MuseSparkAudioModel`): the 24 kHz
            // waveform through stages that each patch `patch_sizes[l]` steps into
            // `hidden_sizes[l]` channels (a biased linear and an RMS norm), then `depths[l]`
            // blocks of a depthwise causal convolution (`conv_kernel_size` taps, biased), an RMS
            // norm and a biased MLP `mlp_ratio` wide; an RMS norm, a biased linear to
            // `out_hidden_size` and an RMS norm. One token per product of the patches (1,920
            // samples: 12.5 a second).
            let list = |k: &str, d: &[u64]| -> Vec<u64> {
                match ac.get(k).and_then(Value::as_array) {
                    Some(a) => a.iter().map(|x| x.as_u64().unwrap_or(0)).collect(),
                    None => d.to_vec(),
                }
            };
            let (patches, widths, depths) = (
                list("patch_sizes", &[16, 6, 5, 4]),
                list("hidden_sizes", &[256, 512, 1024, 2048]),
                list("depths", &[2; 4]),
            );
            let stages = n(&["num_hidden_layers"], 4) as usize;
            if [patches.len(), widths.len(), depths.len()].iter().any(|l| *l != stages)
                || patches.iter().chain(&widths).any(|x| *x == 0 || *x > 1 << 16)
                || depths.iter().any(|d| *d > 256)
            {
                return Some(Err(format!("{kind} audio (its stage lists disagree)")));
            }
            let ratio = ac.get("mlp_ratio").and_then(Value::as_f64).unwrap_or(4.0);
            let k = n(&["conv_kernel_size"], 7);
            let out = n(&["out_hidden_size"], 8192);
            let (mut block, mut other, mut input, mut samples) = (0u64, 0u64, 1u64, 1u64);
            for ((p, h), d) in patches.iter().zip(&widths).zip(&depths) {
                let f = (*h as f64 * ratio) as u64;
                other += input * p * h + h + h + d * (h * k + h + h + f + h);
                block += d * 2 * h * f;
                (input, samples) = (*h, samples * p);
            }
            other += input + input * out + out + out;
            let rate = root.get("sampling_rate").and_then(Value::as_u64).unwrap_or(24_000);
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "muse_spark_audio".into(),
                layers: depths.iter().sum(),
                hidden: input,
                intermediate: (input as f64 * ratio) as u64,
                block_params: block,
                other_params: other,
                patch: 0,
                merge: 1,
                tokens: TokenRule::PerSecond {
                    per_ks: (rate * 1000).div_ceil(samples),
                    whole_windows: false,
                },
                // A convolutional stream has no window: a 30 s clip as the example.
                largest: 30,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }))
        }
        "qwen2_audio" | "voxtral" => {
            // Whisper's encoder: two 1-D convolutions (the second halves the 100 mel frames a
            // second), a learned table of `max_source_positions`, LayerNorm blocks with q, v
            // and output biases (k has none) and a biased two-layer MLP, a final LayerNorm.
            let d = n(&["d_model", "hidden_size"], 1280);
            let layers = n(&["encoder_layers", "num_hidden_layers"], 32);
            let f = n(&["encoder_ffn_dim", "intermediate_size"], 5120);
            let mel = n(&["num_mel_bins"], 128);
            let positions = n(&["max_source_positions"], 1500);
            let block = layers * (4 * d * d + 2 * d * f);
            let tower = mel * d * 3 + d + d * d * 3 + d + positions * d + layers * (8 * d + f) + 2 * d;
            let voxtral = outer == "voxtral";
            let text = text_hidden;
            // Qwen2-Audio pools two frames into one token (a biased linear into the text
            // model); Voxtral stacks four frames (`intermediate_size` wide) into two
            // bias-free linears.
            let (merge, projector) = if voxtral { (4, f * text + text * text) } else { (2, d * text + text) };
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "whisper".into(),
                layers,
                hidden: d,
                intermediate: f,
                block_params: block,
                other_params: tower + projector,
                patch: 0,
                merge,
                // 100 mel frames a second, halved by the convolution, then merged; Voxtral
                // keeps every token of each 30 s window, Qwen2-Audio only the sound's.
                tokens: TokenRule::PerSecond { per_ks: 50_000 / merge, whole_windows: voxtral },
                // One 30 s window (`max_source_positions` frames at 50 a second).
                largest: positions / 50,
                fixed_patches: Some(positions),
                // vLLM imports transformers' `Qwen2AudioEncoder`; Voxtral's is its own parallel Whisper.
                whole_in_vllm: !voxtral,
                vllm_buffers: 0,
            }))
        }
        "qwen2_5_omni" => {
            // Qwen2.5-Omni's audio encoder (transformers 5.24 `Qwen2_5OmniAudioEncoder`): Whisper's
            // two 1-D convolutions (the second halves the 100 mel frames a second), sinusoidal
            // positions (a buffer, not stored), Whisper's LayerNorm blocks (q, v and output
            // biased, k not; a biased two-layer MLP), a two-entry `audio_bos_eos_token` table
            // `output_dim` wide, then a 2× average pool, a final LayerNorm and one biased linear
            // to `output_dim`, the text model's width (no projector). `n_window` (attention in
            // chunks of 2 × 100 frames) changes no weight.
            let d = n(&["d_model"], 1280);
            let layers = n(&["encoder_layers"], 32);
            let f = n(&["encoder_ffn_dim"], 5120);
            let mel = n(&["num_mel_bins"], 128);
            let out = n(&["output_dim"], 3584);
            let block = layers * (4 * d * d + 2 * d * f);
            let convs = (mel * d * 3 + d) + (d * d * 3 + d);
            let other = convs + 2 * out + layers * (3 * d + f + d + 4 * d) + 2 * d + d * out + out;
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: if kind.is_empty() { "qwen2_5_omni_audio_encoder".into() } else { kind },
                layers,
                hidden: d,
                intermediate: f,
                block_params: block,
                other_params: other,
                patch: 0,
                // The average pool: two encoder positions a token.
                merge: 2,
                // 100 mel frames a second (the feature extractor's hop of 160 samples at 16 kHz),
                // 50 after the strided convolution, 25 tokens after the pool: the processor's
                // `_get_feat_extract_output_lengths` of the sound's frames (not the padding).
                tokens: TokenRule::PerSecond { per_ks: 25_000, whole_windows: false },
                // The published feature extractor's `n_samples`: 4,800,000 at 16 kHz, 300 s.
                largest: 300,
                fixed_patches: None,
                // vLLM imports transformers' `Qwen2_5OmniAudioEncoder`.
                whole_in_vllm: true,
                vllm_buffers: 0,
            }))
        }
        "qwen3_omni_moe" => {
            // Qwen3-Omni's audio encoder (transformers 5.24 `Qwen3OmniMoeAudioEncoder`): three
            // biased 3 × 3 stride-2 convolutions `downsample_hidden_size` wide over the mel
            // spectrogram, a bias-free linear from the flattened channels × frequency bins to
            // `d_model`, sinusoidal positions (a buffer, not stored), Whisper-style LayerNorm
            // blocks (q, k, v and output all biased, a biased two-layer MLP), a final LayerNorm,
            // then two biased linears to `output_dim`, the text model's width (no projector).
            let d = n(&["d_model"], 1280);
            let layers = n(&["encoder_layers"], 32);
            let f = n(&["encoder_ffn_dim"], 5120);
            let mel = n(&["num_mel_bins"], 128);
            let c = n(&["downsample_hidden_size"], 480);
            let out = n(&["output_dim"], 3584);
            // Each stride-2 convolution (padding 1) halves the frequency bins, rounding up.
            let bins = mel.div_ceil(2).div_ceil(2).div_ceil(2);
            let convs = (9 * c + c) + 2 * (9 * c * c + c) + c * bins * d;
            let block = layers * (4 * d * d + 2 * d * f);
            let other = convs + layers * (4 * d + f + d + 4 * d) + 2 * d + d * d + d + d * out + out;
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: if kind.is_empty() { "qwen3_omni_moe_audio_encoder".into() } else { kind },
                layers,
                hidden: d,
                intermediate: f,
                block_params: block,
                other_params: other,
                patch: 0,
                merge: 1,
                // 100 mel frames a second, 13 tokens for each whole second (its
                // `_get_feat_extract_output_lengths`: 100 frames → 13 after three halvings).
                tokens: TokenRule::PerSecond { per_ks: 13_000, whole_windows: false },
                // The published feature extractor's `n_samples`: 4,800,000 at 16 kHz, 300 s.
                largest: 300,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }))
        }
        "gemma3n" => {
            // Gemma 3n's USM conformer: a two-convolution subsampler (weight-only group norms)
            // into a bias-free projection, then blocks of two macaron feed-forwards (4× wide),
            // local attention with a learned per-dimension scale and a relative-position
            // projection, a light convolution module (pointwise 2×, depthwise, pointwise) and
            // RMS norms; no linear has a bias. The embedder (`embed_audio`): a table of hard
            // audio tokens, two RMS norms and a bias-free projection into the text model.
            let d = n(&["hidden_size"], 1536);
            let layers = n(&["conf_num_hidden_layers"], 12);
            let heads = n(&["conf_num_attention_heads"], 8).max(1);
            let k = n(&["conf_conv_kernel_size"], 5);
            let feat = n(&["input_feat_size"], 128);
            let vocab = n(&["vocab_size"], 128);
            let pair = |key: &str, i: usize, d: u64| at(ac.get(key), &[i]).unwrap_or(d);
            let kernel = |key: &str, i: usize, j: usize, d: u64| at(ac.get(key), &[i, j]).unwrap_or(d);
            let (c0, c1) = (pair("sscp_conv_channel_size", 0, 128), pair("sscp_conv_channel_size", 1, 32));
            let (k0h, k0w) =
                (kernel("sscp_conv_kernel_size", 0, 0, 3), kernel("sscp_conv_kernel_size", 0, 1, 3));
            let (k1h, k1w) =
                (kernel("sscp_conv_kernel_size", 1, 0, 3), kernel("sscp_conv_kernel_size", 1, 1, 3));
            let (s0, s1) = (
                kernel("sscp_conv_stride_size", 0, 1, 2).max(1),
                kernel("sscp_conv_stride_size", 1, 1, 2).max(1),
            );
            // Frequency bins after each convolution (padded by one on each side).
            let f0 = (feat + 2).saturating_sub(k0w) / s0 + 1;
            let f1 = (f0 + 2).saturating_sub(k1w) / s1 + 1;
            let sscp = c0 * k0h * k0w + c0 + c1 * c0 * k1h * k1w + c1 + c1 * f1 * d;
            let (block, other) = conformer_blocks(d, layers, heads, k, 0);
            let other = other + sscp;
            let text = text_hidden;
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "usm_conformer".into(),
                layers,
                hidden: d,
                intermediate: 4 * d,
                block_params: block,
                other_params: other + vocab * d + 2 * d + d * text,
                patch: 0,
                merge: 1,
                // Every clip (at most 30 s) is padded to the same count.
                tokens: TokenRule::Fixed {
                    tokens: root.get("audio_soft_tokens_per_image").and_then(Value::as_u64).unwrap_or(188),
                },
                largest: 30,
                fixed_patches: None,
                // vLLM's gemma3n_mm builds both towers with transformers' `AutoModel.from_config`.
                whole_in_vllm: true,
                vllm_buffers: 0,
            }))
        }
        "phi4_multimodal" => {
            // Phi-4-multimodal's conformer (transformers 5.24 `Phi4MultimodalAudioModel`): the
            // input's stored mean and inverse deviation, NeMo's striding subsampler (a biased 3×3
            // convolution, then depthwise and pointwise pairs, log2 `time_reduction` halvings in
            // all) into a biased linear, a learned relative-position bias table, and blocks of two
            // macaron gated feed-forwards, biased attention, a GLU convolution module (pointwise,
            // depthwise, pointwise, and a second pointwise) and LayerNorms. Two projections into
            // the text model (speech alone, and speech beside an image), each two biased linears.
            let d = n(&["hidden_size"], 1024);
            let i = n(&["intermediate_size"], 1536);
            let layers = n(&["num_blocks"], 24);
            let heads = n(&["num_attention_heads"], 16);
            let fin = n(&["input_size"], 80);
            let k = n(&["kernel_size"], 3);
            let e = n(&["ext_pw_out_channel"], 1024);
            let sep = n(&["depthwise_separable_out_channel"], 1024);
            let dm = n(&["depthwise_multiplier"], 1);
            let c = n(&["nemo_conv_channels"], 1024);
            let reduction = n(&["time_reduction"], 8).max(2);
            let final_size = n(&["nemo_final_size"], 10);
            let distance = n(&["bias_max_distance"], 1000);
            let symmetric = ac.get("bias_symmetric").and_then(Value::as_bool).unwrap_or(false);
            let rate = n(&["downsample_rate"], 1);
            let halvings = u64::from(reduction.ilog2());
            let subsample = 10 * c + (halvings - 1) * (10 * c + c * c + c) + c * final_size * d + d;
            let bias_table = if symmetric { distance } else { 2 * distance } * heads;
            let conv =
                2 * d + 2 * e * d + 2 * e + 2 * e + d * dm * k + d * dm + d * dm * sep + sep + d * e + e;
            let block = layers * (4 * d * d + 6 * i * d);
            let other =
                2 * fin + subsample + bias_table + layers * (4 * d + 2 * (2 * d + 2 * i + d) + conv + 4 * d);
            let text = text_hidden;
            let projector = 2 * (d * rate * text + text + text * text + text);
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "phi4_conformer".into(),
                layers,
                hidden: d,
                intermediate: i,
                block_params: block,
                other_params: other + projector,
                patch: 0,
                merge: 1,
                // 100 feature frames a second reduced 8×: 12.5 tokens a second, no cap.
                tokens: TokenRule::PerSecond { per_ks: 100_000 / reduction, whole_windows: false },
                largest: 30,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }))
        }
        "gemma4" => {
            // Gemma 4's audio conformer (transformers 5.24 `Gemma4AudioModel`): the same block
            // layout as Gemma 3n's (two macaron feed-forwards, attention with a relative-key
            // projection and a per-dimension scale, the light convolution module, RMS norms, no
            // biases), a two-convolution subsampler whose projection reads `c0 / 4` frequency
            // bins × `c1` channels, and a biased output projection to `output_proj_dims`. Clipped
            // linears keep four stored bounds each (10 a block). The embedder projects the
            // output into the text model without a bias.
            let d = n(&["hidden_size"], 1024);
            let layers = n(&["num_hidden_layers"], 12);
            let heads = n(&["num_attention_heads"], 8).max(1);
            let k = n(&["conv_kernel_size"], 5);
            let out = n(&["output_proj_dims"], 1536);
            let channels = |i: usize, d: u64| at(ac.get("subsampling_conv_channels"), &[i]).unwrap_or(d);
            let (c0, c1) = (channels(0, 128), channels(1, 32));
            let clipped = ac.get("use_clipped_linears").and_then(Value::as_bool).unwrap_or(true);
            let sscp = 9 * c0 + c0 + 9 * c0 * c1 + c1 + (c0 / 4) * c1 * d;
            let (block, other) = conformer_blocks(d, layers, heads, k, if clipped { 40 } else { 0 });
            let other = other + sscp + d * out + out;
            Some(Ok(Encoder {
                modality: Modality::Audio,
                kind: "gemma4_audio".into(),
                layers,
                hidden: d,
                intermediate: 4 * d,
                block_params: block,
                other_params: other + out * text_hidden,
                patch: 0,
                merge: 1,
                // 100 mel frames a second, subsampled 4×: 25 tokens a second, at most 750 (30 s).
                tokens: TokenRule::PerSecond { per_ks: 25_000, whole_windows: false },
                largest: 30,
                fixed_patches: None,
                whole_in_vllm: false,
                vllm_buffers: 0,
            }))
        }
        _ => Some(Err(if kind.is_empty() { format!("{outer} audio") } else { kind })),
    }
}

/// What Kimi's MoonViT towers (K2.5, K3) share besides their sizes: an image encoder of `p`-pixel
/// patches merged `side × side`, one token per merged patch of the nearest grid; Kimi-VL's
/// processor limits an image to 16,384 patches (`in_patch_limit`: 128 × 128).
fn moonvit(p: u64, side: u64) -> Encoder {
    Encoder {
        modality: Modality::Image,
        kind: "moonvit".into(),
        layers: 0,
        hidden: 0,
        intermediate: 0,
        block_params: 0,
        other_params: 0,
        patch: p,
        merge: side,
        tokens: TokenRule::NearestGrid,
        largest: 128 * p,
        fixed_patches: None,
        whole_in_vllm: false,
        vllm_buffers: 0,
    }
}

/// MoonViT's patch merger (Kimi K2.5, K3): `merge_kernel_size` (2 × 2 by default) as its side
/// and the patches it merges into one token.
fn moonvit_merge(vc: &Value) -> (u64, u64) {
    let kernel: Vec<u64> = vc
        .get("merge_kernel_size")
        .and_then(Value::as_array)
        .map_or(alloc::vec![2, 2], |a| a.iter().filter_map(Value::as_u64).collect());
    (kernel.first().copied().unwrap_or(2).max(1), kernel.iter().product::<u64>().max(1))
}

/// dots3-note's MoE ViT (vLLM 0.34 `dots3_note/nvidia/vision.py` `DotsMoEVitModel`, transformers
/// 5.24 `Dots3NoteVisionConfig`): a biased patch convolution and an RMS norm; blocks of a
/// bias-free fused qkv and output with per-head q/k RMS norms and two RMS norms, whose SwiGLU MLP
/// is dense (`intermediate_size`) or a mixture of `pyramid_num_routed[i]` experts of
/// `moe_intermediate_size` with a router and its bias (`pyramid_num_routed` −1: dense; or
/// transformers' `mlp_layer_types` with `per_layer_config`); a norm after the trunk; the patch
/// merger (a LayerNorm, `merged → merged → text` biased linears over `merge²` patches). Plain
/// linears: whole on every GPU under vLLM, which also builds block-FP8 copies of every expert
/// (padded to 128 × 128 blocks, an FP32 scale a block) and keeps the 16-bit ones.
fn dots3_vit(vc: &Value, text_hidden: u64) -> Result<Encoder, String> {
    let n = |keys: &[&str], d: u64| keys.iter().find_map(|k| vc.get(k).and_then(Value::as_u64)).unwrap_or(d);
    let flag =
        |keys: &[&str], d: bool| keys.iter().find_map(|k| vc.get(k).and_then(Value::as_bool)).unwrap_or(d);
    let h = n(&["embed_dim", "hidden_size"], 1536);
    let heads = n(&["num_heads", "num_attention_heads"], 24).max(1);
    let layers = n(&["num_hidden_layers"], 42);
    let (inter, moe) = (n(&["intermediate_size"], 4224), n(&["moe_intermediate_size"], 2112));
    let (p, t, c) = (n(&["patch_size"], 14), n(&["temporal_patch_size"], 1), n(&["num_channels"], 3));
    let merge = n(&["spatial_merge_size", "adapter_merge_size"], 2);
    let out = n(&["adapter_out_dim"], text_hidden);
    let bias = flag(&["use_bias", "attention_bias"], false);
    if !(1..=16_384).contains(&h) || !(1..=256).contains(&layers) || !(1..=64).contains(&merge) {
        return Err("its width, depth or merge are not real sizes".into());
    }
    if [inter, moe, out].iter().any(|w| *w > 1 << 20) {
        return Err("its MLP, experts' or adapter's width is not a real size".into());
    }
    if !h.is_multiple_of(heads)
        || !(1..=1024).contains(&p)
        || !(1..=64).contains(&t)
        || !(1..=16).contains(&c)
    {
        return Err("its heads, patch, frames or channels are not real sizes".into());
    }
    // Experts of each block (0 for a dense one).
    let experts: Vec<u64> = if let Some(list) = vc.get("pyramid_num_routed").and_then(Value::as_array) {
        list.iter()
            .map(|x| x.as_f64().map(|e| if e >= 1.0 { e as u64 } else { 0 }))
            .collect::<Option<Vec<u64>>>()
            .ok_or("`pyramid_num_routed` must list an expert count (−1 dense) per block")?
    } else if let Some(types) = vc.get("mlp_layer_types").and_then(Value::as_array) {
        let per = vc.get("per_layer_config");
        types
            .iter()
            .enumerate()
            .map(|(i, t)| match t.as_str() {
                Some("dense") => Some(0),
                Some("sparse") => per
                    .and_then(|p| p.as_object())
                    .and_then(|o| {
                        o.iter().find(|(k, _)| k.trim_start_matches('0').parse::<usize>().unwrap_or(0) == i)
                    })
                    .and_then(|(_, v)| v.get("num_local_experts"))
                    .and_then(Value::as_u64)
                    .or(Some(n(&["num_local_experts"], 64))),
                _ => None,
            })
            .collect::<Option<Vec<u64>>>()
            .ok_or("`mlp_layer_types` must name each block dense or sparse")?
    } else {
        // The class's pyramid: 25 dense blocks, then 4, 8, … 64 experts and 64 again.
        let mut d = alloc::vec![0u64; 25];
        d.extend((1..=16).map(|k| 4 * k));
        d.push(64);
        d
    };
    if experts.len() as u64 != layers {
        return Err(format!("its MLP list names {} blocks but it has {layers}", experts.len()));
    }
    if experts.iter().any(|e| *e > 4096) {
        return Err("an expert count is not a real size".into());
    }
    let b = u64::from(bias);
    let attn = 3 * h * h + h * h + b * 4 * h;
    let norms = 2 * (h / heads) + 2 * h;
    let mut block = 0u64;
    let mut other = 0u64;
    let mut fp8 = 0u64;
    let pad = |x: u64| x.div_ceil(128) * 128;
    for &e in &experts {
        block += attn;
        other += norms;
        if e == 0 {
            block += 3 * inter * h;
        } else {
            block += e * 3 * moe * h;
            other += e * h + e;
            // vLLM's fused FP8 copies: w1 and w3, then w2, padded to whole 128 blocks, one byte a
            // value and an FP32 scale a block.
            let (r, k) = (pad(moe), pad(h));
            fp8 += e * (3 * r * k + 3 * (r / 128) * (k / 128) * 4);
        }
    }
    let merged = h * merge * merge;
    let patch = h * c * t * p * p + h + h;
    let post = if flag(&["post_norm"], true) { h } else { 0 };
    let merger = 2 * h + merged * merged + merged + out * merged + out;
    Ok(Encoder {
        modality: Modality::Image,
        kind: "dots3_moe_vit".into(),
        layers,
        hidden: h,
        intermediate: inter.max(moe),
        block_params: block,
        other_params: other + patch + post + merger,
        patch: p,
        merge,
        tokens: TokenRule::NearestGrid,
        // The processor's `max_pixels` is in `preprocessor_config.json`, not the config: dots.ocr's
        // 11,289,600 (3,360 a side) stands in.
        largest: 3360,
        fixed_patches: None,
        whole_in_vllm: true,
        vllm_buffers: if flag(&["enable_fp8_moe"], true) { fp8 } else { 0 },
    })
}

/// dots3-note's audio tower (vLLM 0.34 `dots3_note/nvidia/audio_encoder.py` `DotsSpeechEncoder`,
/// `audio.py`; transformers 5.24 `Dots3NoteAudioConfig`, which reads the release's
/// `whisper_config`): a stem of three biased 3 × 3 convolutions into `downsample_hidden_size`
/// channels (a stride of 8 over time and mel bins) and a bias-free linear of `channels × ⌈mels/8⌉`
/// into the width; rotary Whisper layers with RMS norms, biased q, v and output and a bias-free
/// k, a biased SwiGLU MLP; a final RMS norm; the adapter (a LayerNorm, two biased linears into the
/// text width). One token per 8 mel hops of 160 samples at 16 kHz (12.5 a second); a minute a
/// clip (`chunk_seconds`). Plain linears: whole on every GPU under vLLM.
fn dots3_audio(ac: &Value, text_hidden: u64) -> Result<Encoder, String> {
    let w = ac.get("whisper_config");
    let n = |keys: &[&str], d: u64| {
        keys.iter()
            .find_map(|k| ac.get(k).or_else(|| w.and_then(|w| w.get(k))).and_then(Value::as_u64))
            .unwrap_or(d)
    };
    let d = n(&["d_model", "hidden_size"], 1280);
    let layers = n(&["encoder_layers", "num_hidden_layers"], 32);
    let ffn = n(&["encoder_ffn_dim", "intermediate_size"], 5120);
    let mels = n(&["num_mel_bins", "feature_size"], 128);
    let ch = n(&["downsample_hidden_size"], 480);
    let out = n(&["whisper_adapter_out_dim", "adapter_out_dim", "adapter_output_size"], text_hidden);
    let adapter_in = n(&["whisper_adapter_in_dim", "adapter_input_size"], d);
    let hop = n(&["hop_length"], 160).max(1);
    let rate = n(&["sampling_rate"], 16_000);
    let merge = n(&["merge_factor"], 1).max(1);
    let chunk = n(&["chunk_seconds"], 60);
    if !(1..=16_384).contains(&d)
        || !(1..=256).contains(&layers)
        || !(1..=4096).contains(&mels)
        || ch > 16_384
    {
        return Err("its width, depth, mel bins or stem are not real sizes".into());
    }
    if [ffn, out, adapter_in].iter().any(|w| *w > 1 << 20)
        || hop > 1 << 20
        || !(1..=1 << 24).contains(&rate)
        || merge > 1024
        || chunk > 1 << 20
    {
        return Err("its MLP, adapter, hop, sampling rate, merge or chunk is not a real size".into());
    }
    let stem = (9 * ch + ch) + 2 * (9 * ch * ch + ch) + ch * mels.div_ceil(8) * d;
    let adapter = 2 * adapter_in + adapter_in * out + out + out * out + out;
    // Tokens a second: the rate over 8 hops (the stem's stride) times the merge factor.
    let per_ks = (rate * 1000).div_ceil(hop * 8 * merge);
    Ok(Encoder {
        modality: Modality::Audio,
        kind: "dots3_audio".into(),
        layers,
        hidden: d,
        intermediate: ffn,
        block_params: layers * (4 * d * d + 3 * ffn * d),
        other_params: stem + layers * (3 * d + 2 * ffn + d + 2 * d) + d + adapter,
        patch: 0,
        merge: 1,
        tokens: TokenRule::PerSecond { per_ks, whole_windows: false },
        largest: chunk,
        fixed_patches: None,
        whole_in_vllm: true,
        vllm_buffers: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// transformers 5.24.0 (torch 2.15.0, meta device) builds `Llama4VisionModel` from the
    /// default `Llama4VisionConfig` with 415,856,640 parameters and `Llama4MultiModalProjector`
    /// for Scout's 5,120-wide text model with 39,321,600 (the values the released checkpoints'
    /// vision configs carry: 768 wide, 34 layers, 448-pixel tiles of 14-pixel patches).
    #[test]
    fn llama4_vision_counts_what_transformers_builds() {
        let root = crate::json::parse(
            br#"{"model_type": "llama4", "vision_config": {}, "text_config": {"hidden_size": 5120}}"#,
            "test",
        )
        .unwrap();
        let e = vision(&root, "llama4_text", 5120).unwrap().unwrap();
        assert_eq!(e.params(), 415_856_640 + 39_321_600);
        // 1,024 patches shuffled to 256 tokens a tile; a 1024-pixel image is 3 × 3 tiles and a
        // thumbnail.
        assert_eq!(e.tokens_per_image(448), 256);
        assert_eq!(e.tokens_per_image(1024), 2560);
    }

    /// Moonshot's `modeling_kimi_k25.py` (as copied in Ascend/MindSpeed-MM
    /// mindspeed_mm/fsdp/models/kimik2_5 @57069cd5) builds `MoonViT3dPretrainedModel` and
    /// `PatchMergerMLP` from Kimi K2.5's published vision_config with 416,866,032 and 54,277,888
    /// parameters (torch 2.15.0, meta device, its training-framework imports stubbed).
    #[test]
    fn kimi_k25_vision_counts_what_its_modeling_code_builds() {
        let cfg = crate::catalog::model("kimi-k2.5").unwrap();
        let root = crate::json::parse(cfg.config.as_bytes(), "test").unwrap();
        let e = vision(&root, "deepseek_v3", 7168).unwrap().unwrap();
        assert_eq!(e.params(), 416_866_032 + 54_277_888);
        assert_eq!(e.tokens_per_image(1024), 37 * 37);
    }

    fn parse(text: &str) -> Value {
        crate::json::parse(text.as_bytes(), "test").unwrap()
    }

    /// A wrapper with no arm of its own that keeps Qwen3.5-MoE's whole stack (Intern-S2-Preview:
    /// vLLM's `InternS2PreviewForConditionalGeneration` is Qwen3.5-MoE's class) is counted by
    /// Qwen3.5-MoE's arm; one pairing that tower with another text model is not.
    #[test]
    fn a_wrapper_keeping_a_whole_stack_is_read_by_its_tower() {
        let cfg = |outer: &str, text: &str| {
            parse(&format!(
                r#"{{"model_type": "{outer}", "vision_config": {{"model_type": "qwen3_5_moe_vision"}},
                "text_config": {{"model_type": "{text}", "hidden_size": 2048}}}}"#
            ))
        };
        let own = vision(&cfg("qwen3_5_moe", "qwen3_5_moe_text"), "qwen3_5_moe", 2048).unwrap().unwrap();
        let wrapped =
            vision(&cfg("intern_s2_preview", "qwen3_5_moe_text"), "qwen3_5_moe", 2048).unwrap().unwrap();
        assert_eq!(wrapped.params(), own.params());
        // Qwen3.5's own vision config names the family without `_vision`.
        let bare = parse(
            r#"{"model_type": "intern_s2_preview", "vision_config": {"model_type": "qwen3_5_moe"},
            "text_config": {"model_type": "qwen3_5_moe_text", "hidden_size": 2048}}"#,
        );
        assert_eq!(vision(&bare, "qwen3_5_moe", 2048).unwrap().unwrap().params(), own.params());
        let other = vision(&cfg("someone_vl", "llama"), "llama", 2048).unwrap();
        assert_eq!(other.unwrap_err(), "qwen3_5_moe_vision");
    }

    /// Unlimited-OCR's DeepEncoder at transformers 5.24's defaults: SAM ViT-B 95,569,152, CLIP-L
    /// 302,575,616, the projector into a 1,280-wide text model 2,622,720, the row newline and
    /// the view separator 1,280 each. Its views as vLLM's `deepseek_ocr.py` counts them: the
    /// 1,024-pixel global view's 16 × 17 tokens and the separator; above a tile, `k × k` tiles
    /// of 10 × 11 tokens read as one grid (k = 2 for a 1,024 page, 5 for a 3,000 one).
    #[test]
    fn unlimited_ocr_counts_its_deepencoder_and_views() {
        let root = parse(
            r#"{"model_type": "unlimited_ocr", "vision_config": {"sam_config": {}, "encoder_config": {}},
            "text_config": {"hidden_size": 1280}}"#,
        );
        let e = vision(&root, "unlimited_ocr_text", 1280).unwrap().unwrap();
        assert_eq!(e.params(), 95_569_152 + 302_575_616 + 2_622_720 + 2 * 1280);
        assert_eq!(e.tokens_per_image(600), 16 * 17 + 1);
        assert_eq!(e.tokens_per_image(1024), 16 * 17 + 20 * 21 + 1);
        assert_eq!(e.tokens_per_image(3000), 16 * 17 + 50 * 51 + 1);
        assert_eq!(e.max_tokens(), 16 * 17 + 50 * 51 + 1);
        // DeepSeek-OCR's six tiles at most: a 3,000 page stays 2 × 2.
        let six = Encoder {
            tokens: TokenRule::GlobalLocal {
                global: 16,
                tile: 640,
                per_side: 10,
                max_tiles: 6,
                newlines: true,
                ceil_tiles: false,
            },
            ..e
        };
        assert_eq!(six.tokens_per_image(3000), 16 * 17 + 20 * 21 + 1);
    }

    /// DeepSeek-VL2's tower as vLLM builds it (timm's `vit_so400m_patch14_siglip_384` with its
    /// pooling head: 428,225,600 parameters counted by timm 1.0.31 on the meta device), its
    /// `downsample_mlp_gelu` projector (2 × 2 patches of 1,152 into twice the text width, then
    /// the text width) and the newline and separator vectors; its views as vLLM's
    /// `get_num_image_tokens` counts them: 14 × 15 global tokens, a separator, and `k × 14` rows
    /// of `k × 14 + 1` local tokens, `k = ⌈side / 384⌉` up to the 3 × 3 of its candidates.
    #[test]
    fn deepseek_vl2_counts_its_siglip_tower_and_tiles() {
        let text = r#"{"model_type": "deepseek_vl_v2", "tile_tag": "2D", "global_view_pos": "head",
            "candidate_resolutions": [[384, 384], [384, 768], [768, 384], [384, 3456], [3456, 384], [1152, 1152]],
            "vision_config": {"model_name": "siglip_so400m_patch14_384", "layers": 27, "width": 1152,
              "mlp_ratio": 3.7362, "patch_size": 14, "image_size": 384},
            "projector_config": {"projector_type": "downsample_mlp_gelu", "input_dim": 1152, "n_embed": 1280,
              "depth": 2, "mlp_ratio": 2, "downsample_ratio": 2},
            "language_config": {"hidden_size": 1280}}"#;
        let root = parse(text);
        let e = vision(&root, "deepseek_v2", 1280).unwrap().unwrap();
        let projector = (4 * 1152 * 2560 + 2560) + (2560 * 1280 + 1280);
        assert_eq!(e.params(), 428_225_600 + projector + 2 * 1280);
        assert_eq!(e.kind, "siglip");
        assert_eq!(e.tokens_per_image(300), 14 * 15 + 1 + 14 * 15);
        assert_eq!(e.tokens_per_image(700), 14 * 15 + 1 + 28 * 29);
        assert_eq!(e.tokens_per_image(5000), 14 * 15 + 1 + 42 * 43);
        assert_eq!(e.max_tokens(), 14 * 15 + 1 + 42 * 43);
        // An unknown projector is said, not guessed.
        let odd = text.replace("downsample_mlp_gelu", "token_pooling");
        assert!(vision(&parse(&odd), "deepseek_v2", 1280).unwrap().is_err());
    }

    /// Pixtral's processor (transformers 5.24 `PixtralProcessor`, `get_resize_output_image_size`):
    /// ⌈min(side, longest edge) / (patch · merge)⌉ tokens a row, one break token a row.
    #[test]
    fn pixtral_images_become_rows_with_break_tokens() {
        // Mistral Small 3.1's published vision config: 14-pixel patches merged 2 × 2, 1,540 pixels.
        let small = parse(
            r#"{"model_type": "mistral3", "spatial_merge_size": 2, "multimodal_projector_bias": false,
                "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "intermediate_size": 4096,
                "num_hidden_layers": 24, "patch_size": 14, "image_size": 1540}}"#,
        );
        let e = vision(&small, "mistral", 5120).unwrap().unwrap();
        assert_eq!(e.params(), 403_305_472 + 35_652_608);
        assert_eq!(e.tokens_per_image(1540), 55 * 56);
        assert_eq!(e.tokens_per_image(4000), 55 * 56, "scaled down to the longest edge");
        assert_eq!(e.tokens_per_image(1024), 37 * 38);
        assert_eq!(e.patches_per_image(1540), 110 * 110);
        // Pixtral 12B (LLaVA): 16-pixel patches, nothing merged, 1,024 pixels.
        let p12 = parse(
            r#"{"model_type": "llava", "vision_config": {"model_type": "pixtral", "image_size": 1024, "patch_size": 16}}"#,
        );
        let e = vision(&p12, "mistral", 5120).unwrap().unwrap();
        assert_eq!(e.params(), 403_489_792 + 31_467_520);
        assert_eq!(e.tokens_per_image(1024), 64 * 65);
    }

    /// InternVL's processor tiles at 448 pixels, up to 12 tiles, a thumbnail beside several;
    /// LLaVA-1.5's CLIP gives 576 tokens whatever the image; Idefics3 resizes every image.
    #[test]
    fn tiled_and_fixed_images() {
        let internvl = parse(
            r#"{"model_type": "internvl", "downsample_ratio": 0.5, "image_seq_length": 256,
                "vision_config": {"model_type": "internvl_vision", "image_size": [448, 448], "patch_size": [14, 14]}}"#,
        );
        let e = vision(&internvl, "qwen2", 4096).unwrap().unwrap();
        assert_eq!(e.params(), 303_938_560 + 33_570_816);
        assert_eq!(e.tokens_per_image(600), 256);
        assert_eq!(e.tokens_per_image(634), 5 * 256);
        assert_eq!(e.tokens_per_image(951), 10 * 256);
        assert_eq!(e.tokens_per_image(4000), 10 * 256);
        assert_eq!(e.patches_per_image(1024), 10 * 1025);
        let llava = parse(
            r#"{"model_type": "llava", "vision_config": {"model_type": "clip_vision_model", "hidden_size": 1024,
                "intermediate_size": 4096, "num_hidden_layers": 24, "patch_size": 14, "image_size": 336}}"#,
        );
        let e = vision(&llava, "llama", 4096).unwrap().unwrap();
        assert_eq!(e.params(), 303_507_456 + 20_979_712);
        assert_eq!((e.tokens_per_image(200), e.tokens_per_image(2000)), (576, 576));
        let idefics = parse(
            r#"{"model_type": "idefics3", "scale_factor": 2,
                "vision_config": {"model_type": "idefics3_vision", "image_size": 364, "patch_size": 14}}"#,
        );
        let e = vision(&idefics, "llama", 4096).unwrap().unwrap();
        // 4 × 4 crops of 364 pixels and a global one, 169 tokens each.
        assert_eq!((e.tokens_per_image(300), e.tokens_per_image(3000)), (17 * 169, 17 * 169));
    }

    /// Phi-4-multimodal (transformers 5.24's defaults, its published sizes): the SigLIP tower with
    /// its head and projection (441,550,016) and the conformer with both projections
    /// (466,432,416); `273 + 256k² + 16k` tokens for `k = ⌈side/448⌉` tiles a side, at most 6.
    #[test]
    fn phi4_multimodal_encoders() {
        let root = parse(
            r#"{"model_type": "phi4_multimodal", "hidden_size": 3072,
                "vision_config": {"model_type": "phi4_multimodal_vision", "hidden_size": 1152, "intermediate_size": 4304,
                "num_hidden_layers": 27, "image_size": 448, "patch_size": 14},
                "audio_config": {"model_type": "phi4_multimodal_audio"}}"#,
        );
        let v = vision(&root, "phi3", 3072).unwrap().unwrap();
        assert_eq!(v.params(), 441_550_016);
        assert_eq!(v.tokens_per_image(448), 273 + 256 + 16);
        assert_eq!(v.tokens_per_image(600), 273 + 4 * 256 + 32);
        assert_eq!(v.tokens_per_image(1024), 273 + 9 * 256 + 48);
        assert_eq!(v.tokens_per_image(10_000), 273 + 36 * 256 + 96);
        let a = audio(&root, 3072).unwrap().unwrap();
        assert_eq!(a.params(), 466_432_416);
        assert_eq!(a.tokens_per_image(30), 375);
    }

    /// Whisper's 100 mel frames a second, halved by its convolution, padded to 30 s windows:
    /// Qwen2-Audio pools two frames (25 tokens a second of sound), Voxtral stacks four (375
    /// tokens for every window begun).
    #[test]
    fn audio_seconds_become_tokens() {
        let q =
            parse(r#"{"model_type": "qwen2_audio", "audio_config": {"model_type": "qwen2_audio_encoder"}}"#);
        let e = audio(&q, 4096).unwrap().unwrap();
        assert_eq!(e.params(), 636_968_960 + 5_246_976);
        assert_eq!(e.modality, Modality::Audio);
        assert_eq!(e.tokens_per_image(30), 750);
        assert_eq!((e.patches_per_image(30), e.patches_per_image(31)), (1500, 3000));
        let v = parse(r#"{"model_type": "voxtral", "audio_config": {"model_type": "voxtral_encoder"}}"#);
        let e = audio(&v, 3072).unwrap().unwrap();
        assert_eq!(e.params(), 636_968_960 + 25_165_824);
        assert_eq!((e.tokens_per_image(30), e.tokens_per_image(1), e.tokens_per_image(31)), (375, 375, 750));
        // Gemma 4's conformer: 25 tokens a second (transformers 5.24 builds 304,825,088 with
        // its 480 stored clipping bounds, and a 3,538,944-parameter embedder at width 2,304).
        let g4 = parse(r#"{"model_type": "gemma4", "audio_config": {"model_type": "gemma4_audio"}}"#);
        let e = audio(&g4, 2304).unwrap().unwrap();
        assert_eq!(e.params(), 304_825_088 + 3_538_944);
        assert_eq!((e.tokens_per_image(30), e.max_tokens()), (750, 750));
        // Gemma 3n pads every clip to 188 tokens.
        let g = parse(r#"{"model_type": "gemma3n", "audio_soft_tokens_per_image": 188, "audio_config": {}}"#);
        let e = audio(&g, 2048).unwrap().unwrap();
        assert_eq!(e.params(), 681_348_640 + 3_345_408);
        assert_eq!(e.tokens_per_image(7), 188);
    }

    /// GLM-4.1V / 4.5V / 4.6V's vision model at `Glm4vVisionConfig`'s defaults (the published
    /// sizes: 1,536 wide, 24 blocks, a 4,096-wide block MLP, a 13,696-wide merger): transformers
    /// 5.24.0 builds 892,498,432 parameters. Per part: 24 blocks of 4·1536² + 3·1536·4096 matrices
    /// and two norms (28,314,624 each, 679,550,976 in all); the 576-position table 884,736; the
    /// biased Conv3d 1,807,872; the biased 2 × 2 downsample 25,169,920; the post-conv and final
    /// norms 3,072; the merger 185,081,856.
    #[test]
    fn glm4v_vision_counts_what_transformers_builds() {
        for outer in ["glm4v", "glm4v_moe", "glm46v"] {
            let root = parse(&format!(r#"{{"model_type": "{outer}", "vision_config": {{}}}}"#));
            let e = vision(&root, "glm4", 4096).unwrap().unwrap();
            assert_eq!(e.params(), 892_498_432, "{outer}");
            assert_eq!(e.block_params, 24 * (4 * 1536 * 1536 + 3 * 1536 * 4096));
            assert_eq!(e.other_params, 884_736 + 1_807_872 + 24 * 3072 + 25_169_920 + 3072 + 185_081_856);
        }
        // Qwen2-VL's rounding to 28-pixel cells, a token each: a 1,000-pixel side is 36 cells.
        let e =
            vision(&parse(r#"{"model_type": "glm4v", "vision_config": {}}"#), "glm4", 4096).unwrap().unwrap();
        assert_eq!(e.tokens_per_image(1000), 36 * 36);
        assert_eq!(e.max_tokens(), 173 * 173);
    }

    /// Qwen3-Omni's thinker encoders, read from `thinker_config` (transformers 5.24.0's
    /// `Qwen3OmniMoeConfig` defaults): the Qwen3-VL vision encoder with three deepstack mergers
    /// (566,949,104) and the audio encoder (649,894,784: 32 Whisper-style blocks of 19,677,440, the
    /// convolution stem 2,078,880 + 9,830,400, the final norm and the two projections into the
    /// 3,584-wide output 6,230,784). 13 tokens a second of audio.
    #[test]
    fn qwen3_omni_thinker_encoders() {
        let root = parse(
            r#"{"model_type": "qwen3_omni_moe", "thinker_config": {
                "vision_config": {"model_type": "qwen3_omni_moe_vision_encoder", "out_hidden_size": 3584},
                "audio_config": {"model_type": "qwen3_omni_moe_audio_encoder"}}}"#,
        );
        let v = vision(&root, "qwen3_moe", 2048).unwrap().unwrap();
        assert_eq!(v.params(), 566_949_104);
        assert_eq!(v.max_tokens(), 112 * 112);
        let a = audio(&root, 2048).unwrap().unwrap();
        assert_eq!(a.params(), 649_894_784);
        assert_eq!(a.block_params, 32 * (4 * 1280 * 1280 + 2 * 1280 * 5120));
        assert_eq!((a.tokens_per_image(1), a.tokens_per_image(30), a.max_tokens()), (13, 390, 3900));
        // Without `shared_expert_intermediate_size` (no class default) transformers cannot build
        // the talker: named, not counted; a thinker-only checkpoint has none.
        assert_eq!(
            speech_output(&parse(r#"{"model_type": "qwen3_omni_moe", "talker_config": {}}"#)).unwrap(),
            Err("qwen3_omni_moe talker + code2wav".into())
        );
        let off = parse(
            r#"{"model_type": "qwen3_omni_moe", "enable_audio_output": false,
                "talker_config": {"text_config": {"shared_expert_intermediate_size": 768}}}"#,
        );
        assert!(speech_output(&off).is_none());
    }

    /// Qwen3-Omni's talker and code2wav at their class defaults, the talker's shared expert at the
    /// published 768 (transformers 5.24.0 builds them on the meta device: 3,344,516,864 and
    /// 216,016,577). The talker: 20 layers of 155,847,808 (attention 2·1024² + 2·1024·128 with
    /// 64-wide q/k norms, 2,359,424; the router 128·1024, 128 experts of 3·384·1024, the shared
    /// expert 3·1024·768 and its gate 1,024, 153,486,336; two norms 2,048), the final norm, the
    /// codec embedding and head 3072·1024 each, two projections 2048·2048 + 2048 + 2048·1024 +
    /// 1024 = 6,294,528 each, and the code predictor: 5 layers of 15,730,944 (attention
    /// 6,291,456 + 256, MLP 3·1024·3072, norms 2,048), its norm, 31 codec embeddings and 31 heads
    /// of 2048·1024. code2wav: the code embedding 32,768·1024, 8 layers of 13,635,584 and a norm,
    /// two upsamplers of 10,503,168, the decoder's input convolution 11,011,584, its blocks
    /// 33,047,808, 6,496,896, 1,478,976 and 333,984, and the output 192 + 673.
    /// Qwen2.5-Omni's talker and token2wav, at their class defaults and at other widths
    /// (transformers 5.24.0 on the meta device: 6,599,025,664 and 449,051,264 — the DiT
    /// 333,607,760, BigVGAN 115,443,504 —; 398,957,312 and 27,593,136 for the second). The
    /// defaults: 28 talker layers of 233,057,792 (biased q/k/v 29,364,736, MLP 3·3584·18944, two
    /// norms), codec embeddings and head 8448·3584 each, the final norm, the thinker projection
    /// 3584² + 3584; the DiT's timestep MLP 1,312,768, codec embedding 8194·512, input projection
    /// 912·1024 + 1024 with its ECAPA-TDNN of 1,729,280, 22 blocks of 14,693,376, the final
    /// modulation 2,099,200 and mel projection 82,000; BigVGAN's input convolution 861,696, six
    /// upsamplers 15,433,704, eighteen AMP blocks 99,147,888 and the output 48 + 168.
    #[test]
    fn qwen2_5_omni_speech_output() {
        let s =
            speech_output(&parse(r#"{"model_type": "qwen2_5_omni", "talker_config": {}}"#)).unwrap().unwrap();
        assert_eq!(s.kind, "qwen2_5_omni talker + token2wav");
        let layer = 29_364_736 + 3 * 3584 * 18944 + 2 * 3584;
        assert_eq!(layer, 233_057_792);
        assert_eq!(s.talker, 28 * layer + 2 * 8448 * 3584 + 3584 + 3584 * 3584 + 3584);
        assert_eq!(s.talker, 6_599_025_664);
        let dit =
            1_312_768 + 8194 * 512 + 912 * 1024 + 1024 + 1_729_280 + 22 * 14_693_376 + 2_099_200 + 82_000;
        assert_eq!(dit, 333_607_760);
        assert_eq!(s.vocoder, dit + 861_696 + 15_433_704 + 99_147_888 + 48 + 168);
        assert_eq!(s.vocoder, 449_051_264);
        let other = parse(
            r#"{"model_type": "qwen2_5_omni",
                "talker_config": {"hidden_size": 896, "embedding_size": 3584, "intermediate_size": 4864,
                    "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2,
                    "head_dim": 64, "vocab_size": 8448},
                "token2wav_config": {
                    "dit_config": {"hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
                        "head_dim": 32, "ff_mult": 3, "enc_channels": [128, 128, 384],
                        "enc_kernel_sizes": [5, 3, 1], "enc_dilations": [1, 2, 1], "enc_res2net_scale": 4},
                    "bigvgan_config": {"upsample_initial_channel": 512, "upsample_rates": [4, 4, 2],
                        "upsample_kernel_sizes": [8, 8, 4], "resblock_kernel_sizes": [3, 7],
                        "resblock_dilation_sizes": [[1, 3, 5], [1, 3, 5]]}}}"#,
        );
        let o = speech_output(&other).unwrap().unwrap();
        assert_eq!((o.talker, o.vocoder), (398_957_312, 27_593_136));
        // Without audio output, nothing; a malformed list, named and not counted.
        let off =
            parse(r#"{"model_type": "qwen2_5_omni", "enable_audio_output": false, "talker_config": {}}"#);
        assert!(speech_output(&off).is_none());
        let bad = parse(
            r#"{"model_type": "qwen2_5_omni", "talker_config": {},
                "token2wav_config": {"bigvgan_config": {"upsample_rates": [4, 4], "upsample_kernel_sizes": [8]}}}"#,
        );
        assert_eq!(speech_output(&bad).unwrap(), Err("qwen2_5_omni talker + token2wav".into()));
    }

    #[test]
    fn qwen3_omni_speech_output() {
        let root = parse(
            r#"{"model_type": "qwen3_omni_moe",
                "talker_config": {"text_config": {"shared_expert_intermediate_size": 768}}}"#,
        );
        let s = speech_output(&root).unwrap().unwrap();
        assert_eq!(s.kind, "qwen3_omni_moe talker + code2wav");
        let layer = 2_359_424 + 153_486_336 + 2048;
        assert_eq!(layer, 155_847_808);
        let predictor = 5 * 15_730_944 + 1024 + 2 * 31 * 2048 * 1024;
        assert_eq!(s.talker, 20 * layer + 1024 + 2 * 3072 * 1024 + 2 * 6_294_528 + predictor);
        assert_eq!(s.talker, 3_344_516_864);
        let decoder = 11_011_584 + 33_047_808 + 6_496_896 + 1_478_976 + 333_984 + 192 + 673;
        assert_eq!(s.vocoder, 32_768 * 1024 + 8 * 13_635_584 + 1024 + 2 * 10_503_168 + decoder);
        assert_eq!(s.vocoder, 216_016_577);
        // A tied codec head drops its 3072·1024.
        let tied = parse(
            r#"{"model_type": "qwen3_omni_moe", "talker_config": {"tie_word_embeddings": true,
                "text_config": {"shared_expert_intermediate_size": 768}}}"#,
        );
        assert_eq!(speech_output(&tied).unwrap().unwrap().talker, 3_344_516_864 - 3072 * 1024);
        // The published checkpoint's 128-wide talker heads and 16 code groups, with biased
        // attention and a shorter code2wav (transformers 5.24.0: 3,324,693,760 and 134,702,337).
        let published = parse(
            r#"{"model_type": "qwen3_omni_moe",
                "talker_config": {"num_code_groups": 16,
                    "text_config": {"shared_expert_intermediate_size": 768, "head_dim": 128,
                        "num_experts_per_tok": 6, "attention_bias": true},
                    "code_predictor_config": {"num_code_groups": 16, "attention_bias": true}},
                "code2wav_config": {"attention_bias": true, "num_hidden_layers": 4,
                    "upsample_rates": [8, 5, 4], "upsampling_ratios": [2, 2], "decoder_dim": 1024}}"#,
        );
        let s = speech_output(&published).unwrap().unwrap();
        assert_eq!((s.talker, s.vocoder), (3_324_693_760, 134_702_337));
        // Sizes past any real model are named, not overflowed.
        let huge = parse(
            r#"{"model_type": "qwen3_omni_moe", "talker_config": {"text_config":
                {"shared_expert_intermediate_size": 768, "hidden_size": 99999999999}}}"#,
        );
        assert!(speech_output(&huge).unwrap().is_err());
    }

    /// Qwen2.5-Omni's thinker encoders, read from `thinker_config` (transformers 5.24.0 builds
    /// them on the meta device). The vision encoder at the published 1,280 width into the 7B's
    /// 3,584: 676,550,144 (32 blocks of 4·1280² + 3·1280·3420 matrices, 19,686,400 each, and 15,800
    /// of norms and biases each; the bias-free Conv3d 1,505,280; the merger's norm 1,280, its
    /// 5,120² linear 26,219,520 and its projection 18,353,664); 668,684,288 into the 3B's 2,048.
    /// The audio encoder at its class defaults (the published sizes): 639,647,232 (32 blocks of
    /// 4·1280² + 2·1280·5120 matrices and 15,360 of norms and biases, 19,676,160 each; the
    /// convolutions 492,800 + 4,916,480; `audio_bos_eos_token` 7,168; `ln_post` 2,560; `proj`
    /// 4,591,104), 637,676,544 into the 3B's 2,048. 25 tokens a second of sound.
    #[test]
    fn qwen2_5_omni_thinker_encoders() {
        let root = parse(
            r#"{"model_type": "qwen2_5_omni", "thinker_config": {
                "vision_config": {"model_type": "qwen2_5_omni_vision_encoder", "hidden_size": 1280},
                "audio_config": {"model_type": "qwen2_5_omni_audio_encoder"}}}"#,
        );
        let v = vision(&root, "qwen2", 3584).unwrap().unwrap();
        assert_eq!(v.params(), 676_550_144);
        assert_eq!(v.block_params, 32 * 19_686_400);
        assert_eq!(v.other_params, 32 * 15_800 + 1_505_280 + 1280 + 26_219_520 + 18_353_664);
        assert_eq!(v.kind, "qwen2_5_omni_vision_encoder");
        // Qwen2.5-VL's rounding to 28-pixel cells, a token each, up to 3,584² pixels.
        assert_eq!((v.tokens_per_image(1000), v.max_tokens()), (36 * 36, 128 * 128));
        let a = audio(&root, 3584).unwrap().unwrap();
        assert_eq!(a.params(), 639_647_232);
        assert_eq!(a.block_params, 32 * (4 * 1280 * 1280 + 2 * 1280 * 5120));
        assert_eq!(a.other_params, 32 * 15_360 + 492_800 + 4_916_480 + 7168 + 2560 + 4_591_104);
        // 100 frames a second → 50 after the strided convolution → 25 after the pool; 300 s at most.
        assert_eq!((a.tokens_per_image(1), a.tokens_per_image(30), a.max_tokens()), (25, 750, 7500));
        assert_eq!((a.patches_per_image(30), a.max_positions()), (1500, 15_000));
        let three_b = parse(
            r#"{"model_type": "qwen2_5_omni", "thinker_config": {
                "vision_config": {"hidden_size": 1280, "out_hidden_size": 2048},
                "audio_config": {"output_dim": 2048}}}"#,
        );
        assert_eq!(vision(&three_b, "qwen2", 2048).unwrap().unwrap().params(), 668_684_288);
        assert_eq!(audio(&three_b, 2048).unwrap().unwrap().params(), 637_676_544);
        // The talker and token2wav transformers builds by default are counted
        // (`qwen2_5_omni_speech_output`).
        assert!(
            speech_output(&parse(r#"{"model_type": "qwen2_5_omni", "talker_config": {}}"#)).unwrap().is_ok()
        );
        let off =
            parse(r#"{"model_type": "qwen2_5_omni", "enable_audio_output": false, "talker_config": {}}"#);
        assert!(speech_output(&off).is_none());
    }

    /// Sizes no real encoder has are refused by name, never overflowed.
    #[test]
    fn absurd_encoder_sizes_are_named_not_counted() {
        for (cfg, key) in [
            (
                r#"{"model_type": "mistral3", "vision_config": {"model_type": "pixtral", "hidden_size": 4294967296000}}"#,
                "hidden_size",
            ),
            (
                r#"{"model_type": "llava", "vision_config": {"model_type": "clip_vision_model", "patch_size": 1e30}}"#,
                "patch_size",
            ),
            (
                r#"{"model_type": "internvl", "downsample_ratio": 1e-9, "vision_config": {"model_type": "internvl_vision"}}"#,
                "downsample_ratio",
            ),
            (r#"{"model_type": "qwen3_vl", "vision_config": {"depth": 99999999}}"#, "depth"),
            (
                r#"{"model_type": "mistral3", "spatial_merge_size": 1000000, "vision_config": {"model_type": "pixtral"}}"#,
                "spatial_merge_size",
            ),
        ] {
            let why = vision(&parse(cfg), "mistral", 4096).unwrap().unwrap_err();
            assert!(why.contains(key), "{why}");
        }
        let g = parse(
            r#"{"model_type": "gemma3n", "audio_config": {"sscp_conv_kernel_size": [[3, 3], [3, 4000000]]}}"#,
        );
        assert!(audio(&g, 2048).unwrap().unwrap_err().contains("sscp_conv_kernel_size"));
        let wide = parse(r#"{"model_type": "voxtral", "audio_config": {}}"#);
        assert!(audio(&wide, 1 << 30).unwrap().is_err());
    }

    #[test]
    fn an_unread_vision_tower_is_named() {
        let root = crate::json::parse(
            br#"{"model_type": "video_llava", "vision_config": {"model_type": "clip_vision_model"}}"#,
            "test",
        )
        .unwrap();
        assert_eq!(vision(&root, "llama", 4096).unwrap().unwrap_err(), "clip_vision_model");
        let text = crate::json::parse(br#"{"model_type": "llama"}"#, "test").unwrap();
        assert!(vision(&text, "llama", 4096).is_none());
        let audio = crate::json::parse(br#"{"model_type": "ultravox", "audio_config": {}}"#, "test").unwrap();
        assert_eq!(super::audio(&audio, 3584).unwrap().unwrap_err(), "ultravox audio");
    }
}
