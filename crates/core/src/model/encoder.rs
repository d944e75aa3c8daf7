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

/// How one input becomes language-model tokens, as the model's processor computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "snake_case"))]
pub enum TokenRule {
    /// The image resized to the nearest multiple of `patch × merge` per side, one token per
    /// merged patch (Qwen-VL's `smart_resize`).
    NearestGrid,
    /// The image scaled down to at most `longest_edge`, then `⌈side / (patch × merge)⌉` tokens
    /// per row and one break token ending each row (Pixtral, Mistral 3).
    RowBreaks {
        /// The processor's `size.longest_edge`.
        longest_edge: u64,
    },
    /// DeepSeek V4.1's grid (vLLM 0.34's `deepseek_v41` `mm_preprocess.py`): an image below
    /// `min_side²` pixels scaled up to that area, `⌈side / (patch × merge)⌉` tokens a row with a
    /// newline ending each, a start and an end token; an image past `max_tokens` shrunk until
    /// it fits.
    FramedRows {
        /// The side of the processor's `min_pixels` (its square root).
        min_side: u64,
        /// The processor's `max_image_tokens`.
        max_tokens: u64,
    },
    /// Inkling's patches (transformers 5.24 `InklingImageProcessor`, as vLLM 0.34 calls it): the
    /// long edge scaled by `upscale` but not past `max(max_long_edge, long edge)`, then one token
    /// per `patch × patch` cell, `⌈height / patch⌉` rows of `⌊width / patch⌋ + 1` cells.
    UpscaledPatches {
        /// The long edge's scale (vLLM's default rescale fraction, 2).
        upscale: u64,
        /// The processor's `rescale_image_max_upscaled_long_edge`.
        max_long_edge: u64,
    },
    /// The same count for every image (Gemma 3's 256, LLaVA-1.5's 576).
    Fixed {
        /// Tokens per image.
        tokens: u64,
    },
    /// Square tiles of the encoder's resolution, `per_tile` tokens each, every tile the image
    /// needs plus a whole-image thumbnail when there are several (Llama 4).
    Tiles {
        /// Pixels per side of a tile.
        tile: u64,
        /// Tokens per tile.
        per_tile: u64,
    },
    /// InternVL's dynamic tiling: the largest `k × k` grid with `k² ≤ max_tiles` whose tiles
    /// the image covers at least half of, a thumbnail when `k > 1`, `per_tile` tokens a tile.
    GridTiles {
        /// Pixels per side of a tile.
        tile: u64,
        /// Tokens per tile.
        per_tile: u64,
        /// The processor's `max_patches`.
        max_tiles: u64,
    },
    /// Phi-4-multimodal's HD transform (transformers 5.24 `Phi4MultimodalImageProcessor`): a
    /// global view of `g × g` tokens (`g` = tile ÷ patch ÷ 2 after pooling) with a newline token
    /// a row and a separator, then the image cut into `⌈side / tile⌉²` tiles (at most
    /// `max_tiles`), read as one `gk × gk` grid with a newline a row.
    HdTiles {
        /// Pixels per side of a tile.
        tile: u64,
        /// Tokens per side of one tile.
        per_side: u64,
        /// The processor's `dynamic_hd`.
        max_tiles: u64,
    },
    /// Every image resized so its longest edge is `longest_edge`, cut into crops of `tile`
    /// pixels plus one global crop, `per_tile` tokens each (Idefics3, SmolVLM): the same count
    /// whatever the image's size.
    ResizedTiles {
        /// The processor's `size.longest_edge`.
        longest_edge: u64,
        /// Pixels per side of a crop.
        tile: u64,
        /// Tokens per crop.
        per_tile: u64,
    },
    /// DeepSeek-OCR's and Unlimited-OCR's views (vLLM's `deepseek_ocr.py`, "gundam" mode): a
    /// global view of `global × (global + 1)` tokens (a newline ending each row, none in
    /// DeepSeek-OCR-2's views); for an image
    /// larger than a tile, also `k × k` tiles — `k` from 2, the largest with `k² ≤ max_tiles`
    /// whose tiles the image covers more than half of — read as one `k·per_side` grid with a
    /// newline a row; and one separator.
    GlobalLocal {
        /// Tokens per side of the global view.
        global: u64,
        /// Pixels per side of a tile.
        tile: u64,
        /// Tokens per side of one tile.
        per_side: u64,
        /// The processor's most tiles (`max_crops`).
        max_tiles: u64,
        /// Whether each row of a view ends in a newline token (DeepSeek-OCR's; DeepSeek-OCR-2's
        /// views have none).
        newlines: bool,
        /// DeepSeek-VL2's local view: always there, `⌈side / tile⌉` tiles a side (the candidate
        /// resolution its processor picks for a square image, within `max_tiles`), rather than
        /// the grid from 2 DeepSeek-OCR's takes for images larger than a tile.
        ceil_tiles: bool,
    },
    /// The image padded (never resized) to a multiple of `patch × merge` a side, one token a merged
    /// patch: `⌈h / f⌉ · ⌈w / f⌉` (Inkling 2's `Inkling2ImageProcessor`); the encoder runs
    /// `merge²` patches a token and one class position.
    PaddedGrid,
    /// Step-3 VL's views (vLLM 0.34 `Step3VLProcessor`, which Step-3.7 and Step 5 inherit): the
    /// image, its long side cut to `max_side`, as one global view of the tower's resolution
    /// (`global` tokens and a start and an end token); from a `view`-pixel side up, also crops of
    /// `crop` pixels — a side of `k` of them, `k` rounding the side's crops up only past a fifth of
    /// one — of `per_crop` tokens each with their own start and end, and a newline token between
    /// rows of crops.
    StepCrops {
        /// Pixels per side of the global view (the tower's `image_size`).
        view: u64,
        /// Pixels per side of a crop.
        crop: u64,
        /// Tokens of the global view.
        global: u64,
        /// Tokens of one crop.
        per_crop: u64,
        /// The processor's longest side (`MAX_IMAGE_SIZE`, 3,024).
        max_side: u64,
    },
    /// Audio: language-model tokens per second of sound, in thousandths (Whisper's 100 frames a
    /// second halved by its convolution, then pooled or stacked).
    PerSecond {
        /// Tokens per 1,000 seconds.
        per_ks: u64,
        /// Whether every clip is padded to whole windows of the encoder's `fixed_patches`
        /// frames and all their tokens kept (Voxtral), rather than cut to the sound's length
        /// (Qwen2-Audio).
        whole_windows: bool,
    },
}

/// A speech-output stack a checkpoint holds beside its thinker (Qwen3-Omni's talker and
/// code2wav), counted as transformers builds it: `from_pretrained` loads it when the config's
/// `enable_audio_output` is true; vLLM and SGLang serve the thinker only and skip its weights.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SpeechOutput {
    /// What it is (`qwen3_omni_moe talker + code2wav`).
    pub kind: String,
    /// Parameters of the talker: its MoE text model, code predictor, projections and head.
    pub talker: u64,
    /// Parameters of the vocoder that turns its codes into a waveform (code2wav).
    pub vocoder: u64,
}

impl SpeechOutput {
    /// All parameters.
    pub fn params(&self) -> u64 {
        self.talker.saturating_add(self.vocoder)
    }
}

/// An encoder and its projector into the language model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Encoder {
    /// What it reads.
    pub modality: Modality,
    /// Its architecture (`qwen3_vl`, `siglip`, `pixtral`, `whisper`…), as the config's
    /// `vision_config.model_type` or the family names it.
    pub kind: String,
    /// Blocks (transformer or conformer layers) of the encoder.
    pub layers: u64,
    /// Width of the encoder.
    pub hidden: u64,
    /// Width of the blocks' MLP.
    #[cfg_attr(feature = "serde", serde(default))]
    pub intermediate: u64,
    /// Parameters of the blocks' matrices (attention and MLP): what tensor parallelism splits.
    pub block_params: u64,
    /// Every other parameter: patch and position embeddings, norms, biases, the projector or
    /// merger into the language model.
    pub other_params: u64,
    /// Pixels per side of one patch (0 for audio).
    pub patch: u64,
    /// Patches merged per side into one language-model token (Qwen-VL's `spatial_merge_size`,
    /// a pixel shuffle's factor); 1 where nothing is merged.
    pub merge: u64,
    /// How an input becomes language-model tokens.
    pub tokens: TokenRule,
    /// The largest input the model's processor makes: pixels per side of the largest image
    /// (Qwen-VL's `max_pixels`, Pixtral's longest edge, Llama 4's 4 × 4 tiles), or seconds of
    /// the longest audio clip. vLLM profiles its start-up memory with items of this size.
    #[cfg_attr(feature = "serde", serde(default))]
    pub largest: u64,
    /// Positions the encoder runs per image (or per tile) when its resolution is fixed
    /// (SigLIP's `image_size`, a class token included), or per audio window when it pads every
    /// clip to one length (Whisper's 1,500 frames); `None` when it follows the input.
    pub fixed_patches: Option<u64>,
    /// vLLM builds this encoder from transformers' own module (plain linears, not its parallel
    /// layers): whole on every GPU under tensor parallelism, and never quantized.
    #[cfg_attr(feature = "serde", serde(default))]
    pub whole_in_vllm: bool,
    /// Bytes vLLM builds beside the encoder's weights once they are loaded, on every GPU
    /// (dots3-note's ViT: block-FP8 copies of its experts, the 16-bit ones kept).
    #[cfg_attr(feature = "serde", serde(default))]
    pub vllm_buffers: u64,
}

impl Encoder {
    /// All parameters.
    pub fn params(&self) -> u64 {
        self.block_params.saturating_add(self.other_params)
    }

    /// Language-model tokens one `side × side` image becomes; for an audio encoder, one clip of
    /// `side` seconds.
    pub fn tokens_per_image(&self, side: u64) -> u64 {
        let f = self.patch.saturating_mul(self.merge).max(1);
        match self.tokens {
            TokenRule::NearestGrid => {
                let per_side = (side.saturating_add(f / 2) / f).max(1);
                per_side.saturating_mul(per_side)
            }
            TokenRule::RowBreaks { longest_edge } => {
                let n = side.min(longest_edge.max(1)).div_ceil(f).max(1);
                n.saturating_mul(n + 1)
            }
            TokenRule::FramedRows { .. } => {
                let n = self.framed_rows(side);
                n.saturating_mul(n + 1).saturating_add(2)
            }
            TokenRule::Fixed { tokens } => tokens,
            TokenRule::UpscaledPatches { upscale, max_long_edge } => {
                // A square side: scaled to `min(upscale·side, max(cap, side))` exactly.
                let n = side.saturating_mul(upscale.max(1)).min(max_long_edge.max(side)).max(1);
                let p = self.patch.max(1);
                n.div_ceil(p).saturating_mul(n / p + 1)
            }
            TokenRule::Tiles { tile, per_tile } => {
                let per_side = side.div_ceil(tile.max(1)).max(1);
                per_tile.saturating_mul(with_thumbnail(per_side.saturating_mul(per_side)))
            }
            TokenRule::GridTiles { tile, per_tile, max_tiles } => {
                let k = grid_side(side, tile, max_tiles);
                per_tile.saturating_mul(with_thumbnail(k * k))
            }
            TokenRule::HdTiles { tile, per_side, max_tiles } => {
                let gk = per_side.saturating_mul(hd_side(side, tile, max_tiles));
                per_side * per_side + per_side + 1 + gk.saturating_mul(gk) + gk
            }
            TokenRule::ResizedTiles { longest_edge, tile, per_tile } => {
                let k = longest_edge.div_ceil(tile.max(1)).max(1);
                per_tile.saturating_mul(k.saturating_mul(k) + 1)
            }
            TokenRule::GlobalLocal { global, tile, per_side, max_tiles, newlines, ceil_tiles } => {
                let nl = u64::from(newlines);
                let local = if ceil_tiles {
                    let gk = per_side.saturating_mul(hd_side(side, tile, max_tiles));
                    gk.saturating_mul(gk + nl)
                } else if side <= tile || max_tiles < 4 {
                    0
                } else {
                    let gk = per_side.saturating_mul(grid_side(side, tile, max_tiles).max(2));
                    gk.saturating_mul(gk + nl)
                };
                global.saturating_mul(global + nl).saturating_add(local).saturating_add(1)
            }
            TokenRule::PaddedGrid => {
                let per_side = side.div_ceil(f).max(1);
                per_side.saturating_mul(per_side)
            }
            TokenRule::StepCrops { global, per_crop, .. } => {
                let k = self.step_crops(side);
                let newlines = k.saturating_sub(1);
                (k * k).saturating_mul(per_crop + 2).saturating_add(global + 2).saturating_add(newlines)
            }
            TokenRule::PerSecond { per_ks, whole_windows } => match self.fixed_patches {
                Some(w) if whole_windows && w > 0 => {
                    let frames = self.patches_per_image(side);
                    frames / self.merge.max(1)
                }
                _ => side.saturating_mul(per_ks).div_ceil(1000),
            },
        }
    }

    /// Positions the encoder runs for one `side × side` image (before merging), every tile
    /// included; for an audio encoder, for a clip of `side` seconds.
    pub fn patches_per_image(&self, side: u64) -> u64 {
        let m2 = self.merge.saturating_mul(self.merge).max(1);
        match (self.tokens, self.fixed_patches) {
            (TokenRule::Fixed { .. }, Some(p)) => p,
            (TokenRule::Tiles { per_tile, .. }, Some(p))
            | (TokenRule::GridTiles { per_tile, .. }, Some(p))
            | (TokenRule::ResizedTiles { per_tile, .. }, Some(p)) => {
                self.tokens_per_image(side).div_ceil(per_tile.max(1)).saturating_mul(p)
            }
            (TokenRule::HdTiles { tile, max_tiles, .. }, Some(p)) => {
                let k = hd_side(side, tile, max_tiles);
                (k * k + 1).saturating_mul(p)
            }
            (TokenRule::PerSecond { per_ks, .. }, window) => {
                // Audio frames the encoder runs (before pooling or stacking), in whole windows
                // when it pads every clip to a fixed length (Whisper's 30 s of 1,500 frames).
                let frames = side.saturating_mul(per_ks).saturating_mul(self.merge.max(1)).div_ceil(1000);
                match window {
                    Some(w) if w > 0 => frames.div_ceil(w).max(1).saturating_mul(w),
                    _ => frames,
                }
            }
            (TokenRule::PaddedGrid, _) => self.tokens_per_image(side).saturating_mul(m2).saturating_add(1),
            (TokenRule::StepCrops { view, crop, .. }, _) => {
                // The global view at the tower's resolution, each crop at its own.
                let p = self.patch.max(1);
                let k = self.step_crops(side);
                let (g, c) = (view / p, crop / p);
                (g * g).saturating_add((k * k).saturating_mul(c * c))
            }
            (TokenRule::FramedRows { .. }, _) => {
                let n = self.framed_rows(side);
                n.saturating_mul(n).saturating_mul(m2)
            }
            (TokenRule::RowBreaks { longest_edge }, _) => {
                let n = side.min(longest_edge.max(1)).div_ceil(self.patch.saturating_mul(self.merge).max(1));
                n.saturating_mul(n).saturating_mul(m2)
            }
            _ => self.tokens_per_image(side).saturating_mul(m2),
        }
    }
}

impl Encoder {
    /// Crops a side of a square `side` image under [`TokenRule::StepCrops`]: none below the
    /// view's side; else the side (cut to `max_side`) over the crop, rounded up when the rest is
    /// more than a fifth of a crop (`get_image_size_for_crop`).
    fn step_crops(&self, side: u64) -> u64 {
        let TokenRule::StepCrops { view, crop, max_side, .. } = self.tokens else { return 0 };
        let side = side.min(max_side);
        let crop = crop.max(1);
        if side < view {
            return 0;
        }
        let whole = side / crop;
        // `side / crop − ⌊side / crop⌋ > 0.2`, in integers.
        let k = if (side % crop) * 5 > crop { whole + 1 } else { whole };
        k.clamp(1, 64)
    }

    /// Rows (and tokens a row) of a square `side` image under [`TokenRule::FramedRows`]: the
    /// merged patches a side of the scaled-up image makes, at most the most that keep
    /// `n·(n + 1) + 2` within `max_tokens`.
    fn framed_rows(&self, side: u64) -> u64 {
        let TokenRule::FramedRows { min_side, max_tokens } = self.tokens else { return 0 };
        let f = self.patch.saturating_mul(self.merge).max(1);
        let n = side.max(min_side).div_ceil(f).max(1);
        let mut most = max_tokens.saturating_sub(2).isqrt();
        while most > 1 && most * (most + 1) + 2 > max_tokens {
            most -= 1;
        }
        n.min(most.max(1))
    }

    /// Language-model tokens of the largest item the processor makes.
    pub fn max_tokens(&self) -> u64 {
        self.tokens_per_image(self.largest)
    }

    /// Positions the encoder runs for its largest item.
    pub fn max_positions(&self) -> u64 {
        self.patches_per_image(self.largest)
    }

    /// PyTorch's working set while the encoder runs `positions` positions at 16 bits, its
    /// matrices split over `tp` GPUs: the residual stream and its norm, and the widest of one
    /// block's attention projections (q, k, v) or MLP (up, gate or activation, product), the
    /// shape of the language model's own profile rule.
    pub fn activation(&self, positions: u64, tp: u64) -> u64 {
        let widest = self.intermediate.saturating_mul(3).max(self.hidden.saturating_mul(3)) / tp.max(1);
        positions.saturating_mul(2).saturating_mul(self.hidden.saturating_mul(2).saturating_add(widest))
    }
}

/// Tiles a side Phi-4-multimodal cuts a square image into: `⌈side / tile⌉`, or the largest
/// square grid of `max_tiles` when that is more.
fn hd_side(side: u64, tile: u64, max_tiles: u64) -> u64 {
    side.div_ceil(tile.max(1)).max(1).min(max_tiles.isqrt().max(1))
}

/// The side of the largest `k × k` grid of tiles (`k² ≤ max_tiles`) a `side × side` image
/// covers more than half of (`side² > k² · tile² / 2`), as InternVL's processor chooses it.
fn grid_side(side: u64, tile: u64, max_tiles: u64) -> u64 {
    let area = u128::from(side) * u128::from(side);
    let mut k = 1u64;
    while (k + 1).saturating_mul(k + 1) <= max_tiles {
        let need = u128::from((k + 1) * (k + 1)) * u128::from(tile) * u128::from(tile);
        if area * 2 <= need {
            break;
        }
        k += 1;
    }
    k
}

/// Tiles with the whole-image thumbnail processors add when an image needs more than one.
fn with_thumbnail(tiles: u64) -> u64 {
    if tiles > 1 { tiles + 1 } else { tiles.max(1) }
}
