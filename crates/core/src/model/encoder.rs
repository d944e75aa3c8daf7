//! Vision and audio encoders of multimodal checkpoints, with their projectors: counted from the
//! config's `vision_config` (or `audio_config`) as `transformers` builds them.

use alloc::string::String;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// What an encoder reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum Modality {
    /// Images (and video frames).
    Image,
    /// Audio.
    Audio,
}

/// An encoder and its projector into the language model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Encoder {
    /// What it reads.
    pub modality: Modality,
    /// Its architecture (`qwen3_vl`, `siglip`…), as the config's `vision_config.model_type` or the
    /// family names it.
    pub kind: String,
    /// Blocks (transformer layers) of the encoder.
    pub layers: u64,
    /// Width of the encoder.
    pub hidden: u64,
    /// Parameters of the blocks' matrices (attention and MLP): what tensor parallelism splits.
    pub block_params: u64,
    /// Every other parameter: patch and position embeddings, norms, biases, the projector or
    /// merger into the language model.
    pub other_params: u64,
    /// Pixels per side of one patch.
    pub patch: u64,
    /// Patches merged per side into one language-model token (Qwen-VL's `spatial_merge_size`;
    /// 1 where the projector pools to a fixed count instead).
    pub merge: u64,
    /// Language-model tokens per image when the model uses a fixed count (Gemma 3's 256);
    /// `None` when it follows the image's size.
    pub fixed_tokens: Option<u64>,
    /// Patches per image when the encoder runs at a fixed resolution (SigLIP's `image_size`).
    pub fixed_patches: Option<u64>,
    /// Pixels per side of one tile when the image is cut into tiles of the encoder's resolution,
    /// each `fixed_tokens` tokens, plus a whole-image thumbnail when there are several (Llama 4).
    #[cfg_attr(feature = "serde", serde(default))]
    pub tile: Option<u64>,
}

impl Encoder {
    /// All parameters.
    pub fn params(&self) -> u64 {
        self.block_params.saturating_add(self.other_params)
    }

    /// Language-model tokens one `side × side` image becomes: a fixed count, or the image resized
    /// to a multiple of `patch × merge` (Qwen-VL's `smart_resize`, rounding to the nearest).
    pub fn tokens_per_image(&self, side: u64) -> u64 {
        if let (Some(t), Some(tile)) = (self.fixed_tokens, self.tile) {
            let per_side = side.div_ceil(tile.max(1)).max(1);
            let tiles = per_side.saturating_mul(per_side);
            return t.saturating_mul(if tiles > 1 { tiles + 1 } else { 1 });
        }
        if let Some(t) = self.fixed_tokens {
            return t;
        }
        let f = self.patch.saturating_mul(self.merge).max(1);
        let per_side = (side.saturating_add(f / 2) / f).max(1);
        per_side.saturating_mul(per_side)
    }

    /// Patches the encoder itself runs for one `side × side` image (before merging).
    pub fn patches_per_image(&self, side: u64) -> u64 {
        if let Some(p) = self.fixed_patches {
            return p;
        }
        self.tokens_per_image(side).saturating_mul(self.merge.saturating_mul(self.merge).max(1))
    }
}
