//! The encoders of a multimodal `config.json`, counted as `transformers` builds them (module by
//! module, from `models/<family>/modeling_<family>.py`), with each config class's defaults for
//! keys the file leaves out.

use alloc::format;
use alloc::string::{String, ToString};

use crate::json::Value;
use crate::model::{Encoder, Modality};

/// A vision tower the config describes, or why it is not counted (`Err` names the kind).
pub(crate) fn vision(root: &Value, family: &str) -> Option<Result<Encoder, String>> {
    let v = root.get("vision_config").filter(|v| v.as_object().is_some());
    let kind = v.and_then(|v| v.get("model_type")).and_then(Value::as_str).unwrap_or("").to_string();
    let outer = root.get("model_type").and_then(Value::as_str).unwrap_or(family);
    let text_hidden = root
        .get("text_config")
        .and_then(|t| t.get("hidden_size"))
        .or_else(|| root.get("hidden_size"))
        .and_then(Value::as_u64);
    let empty = Value::Object(alloc::vec::Vec::new());
    let vc = v.unwrap_or(&empty);
    let n = |k: &str, d: u64| vc.get(k).and_then(Value::as_u64).unwrap_or(d);
    let enc = match outer {
        "qwen3_vl" | "qwen3_vl_moe" | "qwen3_5" | "qwen3_5_moe" => {
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
                // Qwen3.5's vision has no deepstack mergers; Qwen3-VL's default lists three.
                None if outer.starts_with("qwen3_vl") => 3,
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
                block_params: depth * block_mat,
                other_params: c * t * p * p * h
                    + h
                    + pos * h
                    + depth * block_other
                    + merger(false)
                    + deepstack * merger(true),
                patch: p,
                merge: m,
                fixed_tokens: None,
                fixed_patches: None,
                tile: None,
            }
        }
        "qwen2_5_vl" => {
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
                kind: "qwen2_5_vl".into(),
                layers: depth,
                hidden: h,
                block_params: depth * block_mat,
                other_params: c * t * p * p * h + depth * block_other + h + hm * hm + hm + hm * out + out,
                patch: p,
                merge: m,
                fixed_tokens: None,
                fixed_patches: None,
                tile: None,
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
                block_params: depth * block_mat,
                other_params: c * t * p * p * e + depth * block_other + 2 * e + em * em + em + em * out + out,
                patch: p,
                merge: m,
                fixed_tokens: None,
                fixed_patches: None,
                tile: None,
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
            let text = text_hidden.unwrap_or(2304);
            let projector = h * text + h;
            Encoder {
                modality: Modality::Image,
                kind: "siglip".into(),
                layers,
                hidden: h,
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
                fixed_tokens: root.get("mm_tokens_per_image").and_then(Value::as_u64).or(Some(256)),
                fixed_patches: Some(positions),
                tile: None,
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
            let text = text_hidden.unwrap_or(5120);
            let merge = if ratio > 0.0 { (1.0 / ratio) as u64 } else { 1 };
            Encoder {
                modality: Modality::Image,
                kind: "llama4_vision".into(),
                layers,
                hidden: h,
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
                fixed_tokens: Some(patches / (merge * merge).max(1)),
                fixed_patches: Some(patches),
                tile: Some(image),
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
            let kernel: alloc::vec::Vec<u64> = vc
                .get("merge_kernel_size")
                .and_then(Value::as_array)
                .map_or(alloc::vec![2, 2], |a| a.iter().filter_map(Value::as_u64).collect());
            let k: u64 = kernel.iter().product::<u64>().max(1);
            let mm = n("mm_hidden_size", h);
            let text = vc.get("text_hidden_size").and_then(Value::as_u64).or(text_hidden).unwrap_or(7168);
            let merged = mm * k;
            let block_mat = 4 * h * h + 2 * h * i;
            let block_other = 4 * h + 3 * h + h + i + h;
            Encoder {
                modality: Modality::Image,
                kind: "moonvit".into(),
                layers,
                hidden: h,
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
                patch: p,
                merge: kernel.first().copied().unwrap_or(2).max(1),
                fixed_tokens: None,
                fixed_patches: None,
                tile: None,
            }
        }
        "gemma4" => {
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
            let text = text_hidden.unwrap_or(2304);
            let standardize = if flag("standardize") { 2 * h } else { 0 };
            Encoder {
                modality: Modality::Image,
                kind: "gemma4_vision".into(),
                layers,
                hidden: h,
                block_params: layers * block_mat,
                other_params: 3 * p * p * h + 2 * pos * h + layers * block_other + standardize + h * text,
                patch: p,
                merge: n("pooling_kernel_size", 3),
                fixed_tokens: root.get("vision_soft_tokens_per_image").and_then(Value::as_u64),
                fixed_patches: None,
                tile: None,
            }
        }
        _ => {
            v?;
            return Some(Err(if kind.is_empty() { format!("{outer} vision") } else { kind }));
        }
    };
    Some(Ok(enc))
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
        let e = vision(&root, "llama4_text").unwrap().unwrap();
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
        let e = vision(&root, "deepseek_v3").unwrap().unwrap();
        assert_eq!(e.params(), 416_866_032 + 54_277_888);
        assert_eq!(e.tokens_per_image(1024), 37 * 37);
    }

    #[test]
    fn an_unread_vision_tower_is_named() {
        let root = crate::json::parse(
            br#"{"model_type": "mistral3", "vision_config": {"model_type": "pixtral"}}"#,
            "test",
        )
        .unwrap();
        assert_eq!(vision(&root, "mistral").unwrap().unwrap_err(), "pixtral");
        let text = crate::json::parse(br#"{"model_type": "llama"}"#, "test").unwrap();
        assert!(vision(&text, "llama").is_none());
    }
}
