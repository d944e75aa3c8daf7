//! The page's own words in English and French (the core's explanations are in `headroom_core::text`).

use headroom_core::text::Lang;

macro_rules! ui_text {
    ($($id:ident => $en:literal, $fr:literal;)*) => {
        /// A label, heading or button text of the page.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum T { $($id,)* }

        /// Each text's English and French, in the order of [`T`]: a table rather than a match,
        /// so the WASM holds data, not a branch per text.
        const TEXTS: &[(&str, &str)] = &[$(($en, $fr),)*];

        /// The words of `t` in `lang`.
        pub fn tr(lang: Lang, t: T) -> &'static str {
            let (en, fr) = TEXTS[t as usize];
            match lang {
                Lang::En => en,
                Lang::Fr => fr,
            }
        }
    };
}

ui_text! {
    Tagline => "How much memory, disk, speed and money a language model needs — term by term, before you buy or rent.",
        "Combien de mémoire, de disque, de vitesse et d'argent demande un modèle de langage — poste par poste, avant d'acheter ou de louer.";
    Model => "Model", "Modèle";
    FromCatalog => "From the catalog", "Du catalogue";
    ParamCount => "Parameter count", "Nombre de paramètres";
    ConfigJson => "config.json", "config.json";
    SearchModels => "Search models", "Chercher un modèle";
    Parameters => "Parameters", "Paramètres";
    PasteConfig => "Paste a Hugging Face config.json", "Collez un config.json de Hugging Face";
    UploadConfig => "or upload the file", "ou envoyez le fichier";
    ReadConfig => "Read config", "Lire la config";
    Mode => "Workload", "Charge de travail";
    Inference => "Inference", "Inférence";
    FullFt => "Full fine-tuning", "Entraînement complet";
    Lora => "LoRA", "LoRA";
    Qlora => "QLoRA", "QLoRA";
    WeightPrecision => "Weight precision", "Précision des poids";
    ModelsOwn => "the model's own", "celle du modèle";
    KvPrecision => "KV-cache precision", "Précision du cache KV";
    Context => "Context (tokens per sequence)", "Contexte (tokens par séquence)";
    Concurrency => "Concurrent requests", "Requêtes simultanées";
    MicroBatch => "Micro-batch (sequences)", "Micro-batch (séquences)";
    BatchOrUsers => "Sequences at once (requests or micro-batch)", "Séquences à la fois (requêtes ou micro-batch)";
    Runtime => "Runtime", "Runtime";
    ByFormat => "usual for the format", "habituel pour le format";
    FlashAttention => "Flash attention", "Flash attention";
    TextOnly => "Text only (skip the vision/audio encoder)", "Texte seulement (sans l'encodeur vision/audio)";
    LlamaOptions => "llama.cpp / Ollama settings", "Réglages llama.cpp / Ollama";
    CpuMoeAll => "All MoE experts in system RAM (--cpu-moe)", "Tous les experts MoE en RAM système (--cpu-moe)";
    CpuMoeLayers => "MoE experts of the first N layers in RAM (--n-cpu-moe)", "Experts MoE des N premières couches en RAM (--n-cpu-moe)";
    DraftModel => "Draft model for speculative decoding (-md)", "Modèle brouillon pour le décodage spéculatif (-md)";
    NoDraft => "— none —", "— aucun —";
    PasteCommand => "Paste a llama-server, ollama, vllm serve or sglang.launch_server command", "Collez une commande llama-server, ollama, vllm serve ou sglang.launch_server";
    VllmModelLenAuto => "--max-model-len auto: vLLM starts from the model's longest context, {0} tokens, and lowers it to what its cache holds", "--max-model-len auto : vLLM part du contexte le plus long du modèle, {0} tokens, et le réduit à ce que son cache contient";
    VllmModelLen => "no --max-model-len: vLLM serves the model's longest context, {0} tokens", "pas de --max-model-len : vLLM sert le contexte le plus long du modèle, {0} tokens";
    LlamaSplitTitle => "llama.cpp's layer split, GPU by GPU", "La répartition des couches de llama.cpp, GPU par GPU";
    LlamaSplitLayers => "layers", "couches";
    LlamaSplitHead => "output", "sortie";
    LlamaSplitWeights => "weights", "poids";
    LlamaSplitCache => "KV and state", "KV et état";
    LlamaSplitCompute => "compute", "calcul";
    LlamaSplitTotal => "total", "total";
    WithGpus => "More GPUs beside this one (llama.cpp: catalog ids, in order)", "D'autres GPU à côté de celui-ci (llama.cpp : ids du catalogue, dans l'ordre)";
    NotOneCard => "not a single GPU card", "pas une carte GPU seule";
    WithGpusNeedsDevice => "choose the first card as the device first", "choisissez d'abord la première carte comme appareil";
    TensorSplit => "Tensor split (-ts, one share per GPU)", "Répartition (-ts, une part par GPU)";
    NumBatch => "Ollama num_batch (empty: Ollama's choice)", "num_batch d'Ollama (vide : son choix)";
    OllamaDefaultContext => "no OLLAMA_CONTEXT_LENGTH: Ollama's default for this device's VRAM, {0} tokens (4k under 23 GiB, 32k under 47 GiB, 256k beyond, at most the model's)", "pas d'OLLAMA_CONTEXT_LENGTH : le défaut d'Ollama pour la VRAM de cet appareil, {0} tokens (4k sous 23 Gio, 32k sous 47 Gio, 256k au-delà, au plus celui du modèle)";
    VllmOptions => "vLLM settings", "Réglages vLLM";
    VllmVersion => "vLLM release", "Version de vLLM";
    VllmUtilization => "GPU memory utilization, % (0: the release's default)", "Utilisation de la mémoire GPU, % (0 : la valeur de la version)";
    VllmMaxNumSeqs => "--max-num-seqs (0: the card's default)", "--max-num-seqs (0 : la valeur de la carte)";
    VllmMaxBatched => "--max-num-batched-tokens (0: the card's default)", "--max-num-batched-tokens (0 : la valeur de la carte)";
    VllmEager => "--enforce-eager (no CUDA graphs)", "--enforce-eager (sans graphes CUDA)";
    VllmEncoderData => "--mm-encoder-tp-mode data (the encoder whole on each GPU)", "--mm-encoder-tp-mode data (l'encodeur entier sur chaque GPU)";
    VllmPrefix => "Prefix caching (hybrid models keep more Mamba states with it)", "Cache de préfixes (les modèles hybrides gardent alors plus d'états Mamba)";
    VllmPipeline => "--pipeline-parallel-size (stages; the GPU count is each stage's)", "--pipeline-parallel-size (étages ; le nombre de GPU est celui de chaque étage)";
    VllmGraphMax => "--max-cudagraph-capture-size (0: vLLM's default)", "--max-cudagraph-capture-size (0 : celui de vLLM)";
    VllmDcp => "--decode-context-parallel-size (GPUs of the group splitting each request's cache by tokens)", "--decode-context-parallel-size (GPU du groupe qui se partagent le cache de chaque requête par jetons)";
    VllmPrefixDefault => "the default", "par défaut";
    VllmMambaConv => "--mamba-cache-dtype (a hybrid's convolution state)", "--mamba-cache-dtype (état de convolution d'un hybride)";
    VllmMambaSsm => "--mamba-ssm-cache-dtype (a hybrid's recurrent state)", "--mamba-ssm-cache-dtype (état récurrent d'un hybride)";
    DtypeAuto => "auto (the model's; FP32 recurrent state where it asks)", "auto (celui du modèle ; état récurrent FP32 s'il le demande)";
    On => "on", "activé";
    Float8 => "Float8 training (torchao; FP8 tensor cores)", "Entraînement float8 (torchao ; cœurs tensoriels FP8)";
    Off => "off", "désactivé";
    ReduceBucket => "DeepSpeed reduce_bucket_size (elements; 0: the Trainer's auto, hidden²)", "reduce_bucket_size de DeepSpeed (éléments ; 0 : auto du Trainer, cachée²)";
    OverlapComm => "DeepSpeed overlap_comm (two gradient buckets at ZeRO-1/2)", "overlap_comm de DeepSpeed (deux tampons de gradients en ZeRO-1/2)";
    VllmPrefixOn => "on (--enable-prefix-caching)", "activé (--enable-prefix-caching)";
    VllmPrefixOff => "off (--no-enable-prefix-caching)", "désactivé (--no-enable-prefix-caching)";
    Reserve => "Kept free for other programs", "Gardé libre pour les autres programmes";
    ReserveNone => "nothing (the whole memory)", "rien (toute la mémoire)";
    ReserveAuto => "the device's usual (display GPU 0.5 GiB, Mac 4 GiB, CPU 2 GiB)", "l'habituel de l'appareil (GPU d'affichage 0,5 Gio, Mac 4 Gio, CPU 2 Gio)";
    VllmSpec => "Speculative decoding (--speculative-config)", "Décodage spéculatif (--speculative-config)";
    SglangOptions => "SGLang settings", "Réglages SGLang";
    SglangFraction => "--mem-fraction-static, % (0: SGLang's heuristic)", "--mem-fraction-static, % (0 : l'heuristique de SGLang)";
    SglangChunk => "--chunked-prefill-size (0: the card's default)", "--chunked-prefill-size (0 : la valeur de la carte)";
    SglangPage => "--page-size (0: 1)", "--page-size (0 : 1)";
    SglangNoGraph => "--disable-cuda-graph", "--disable-cuda-graph";
    SglangSwaRatio => "--swa-full-tokens-ratio, % (0: 80%; hybrid sliding-window models)", "--swa-full-tokens-ratio, % (0 : 80 % ; modèles à fenêtre glissante hybrides)";
    SglangNoSwa => "--disable-hybrid-swa-memory", "--disable-hybrid-swa-memory";
    SglangMambaRatio => "--mamba-full-memory-ratio, % (0: 90%; hybrid Mamba models)", "--mamba-full-memory-ratio, % (0 : 90 % ; modèles Mamba hybrides)";
    SglangMambaSlots => "--max-mamba-cache-size (0: from the ratio)", "--max-mamba-cache-size (0 : selon le ratio)";
    SglangAtStart => "SGLang at start: free memory × mem_fraction_static − weights = KV pool", "SGLang au démarrage : mémoire libre × mem_fraction_static − poids = pool KV";
    SglangPoolTokens => "tokens in the pool", "tokens dans le pool";
    VllmAtStart => "at start", "au démarrage";
    VllmShare => "its share", "sa part";
    VllmKvCache => "KV cache", "cache KV";
    VllmLenAuto => "--max-model-len auto (the context lowered to what the cache holds)", "--max-model-len auto (le contexte réduit à ce que le cache contient)";
    VllmNoExtensible => "KV cache sized before warmup, from the profile step (--no-enable-extensible-kv-cache; 0.34's default measures it after)", "cache KV dimensionné avant le préchauffage, par la passe de profilage (--no-enable-extensible-kv-cache ; la 0.34 le mesure après par défaut)";
    VllmAfterWarmup => "sized after warmup", "dimensionné après le préchauffage";
    VllmContext => "CUDA context", "contexte CUDA";
    VllmInUse => "in use: weights, other buffers, CUDA graphs", "en usage : poids, autres tampons, graphes CUDA";
    VllmMargin => "margin", "marge";
    VllmTransient => "kept for activations", "gardés pour les activations";
    VllmReserved => "reserved at the profile step", "réservés à la passe de profilage";
    VllmLog => "What its log will say", "Ce que dira son journal";
    VllmRequests => "Requests the cache holds at once", "Requêtes que le cache tient à la fois";
    VllmRequestsCol => "requests at once", "requêtes à la fois";
    VllmTokensPerRequest => "tokens per request", "tokens par requête";
    VllmApprox => "recurrent or mixed-size layers: the layout is approximated", "couches récurrentes ou de tailles mêlées : l'agencement est approché";
    ReadCommand => "Read command", "Lire la commande";
    NotApplied => "Not applied", "Non appliqué";
    CommandModelKept => "The command's model is not in the catalog; the model chosen above is kept:", "Le modèle de la commande n'est pas au catalogue ; le modèle choisi plus haut est gardé :";
    Ubatch => "Micro-batch -ub (tokens)", "Micro-batch -ub (tokens)";
    BatchTokens => "Batch -b (tokens)", "Batch -b (tokens)";
    KvV => "V-cache precision (-ctv)", "Précision du cache V (-ctv)";
    SameAsK => "same as K", "comme K";
    SwaFull => "Full-size sliding-window cache (--swa-full)", "Cache de fenêtre glissante complet (--swa-full)";
    KvUnified => "One KV cache for all sequences (--kv-unified)", "Un cache KV pour toutes les séquences (--kv-unified)";
    Optimizer => "Optimizer", "Optimiseur";
    TrainPrecision => "Precision recipe", "Recette de précision";
    LoraRank => "LoRA rank", "Rang LoRA";
    LoraTargets => "LoRA targets", "Cibles LoRA";
    Checkpointing => "Gradient checkpointing", "Gradient checkpointing";
    Framework => "Framework (its defaults)", "Framework (ses réglages par défaut)";
    LossKernel => "Loss over the vocabulary", "Perte sur le vocabulaire";
    LoraDropout => "LoRA dropout (a copy of each adapted input)", "Dropout LoRA (une copie de chaque entrée adaptée)";
    AdaptersFp32 => "Adapters in FP32 (peft)", "Adaptateurs en FP32 (peft)";
    KbitUpcast => "Upcast unquantized parameters to FP32 (peft's k-bit preparation)", "Convertir en FP32 les paramètres non quantifiés (préparation k-bit de peft)";
    GradAccum => "Gradient accumulation (micro-batches per step)", "Accumulation de gradients (micro-lots par pas)";
    CkptEvery => "Checkpoint every k-th layer (the others keep everything)", "Checkpointing d'une couche sur k (les autres gardent tout)";
    OptimizerInBackward => "Optimizer step in the backward pass", "Pas de l'optimiseur dans la passe arrière";
    ActivationOffload => "Offload activations to CPU", "Décharger les activations vers le CPU";
    Compile => "torch.compile", "torch.compile";
    Dora => "DoRA (weight-decomposed adapters)", "DoRA (adaptateurs à poids décomposés)";
    MakeItFit => "To make it fit, in the order people try (each step keeps the ones before)", "Pour que ça tienne, dans l'ordre où on essaie (chaque étape garde les précédentes)";
    ItFits => "fits", "tient";
    LoraTradeoff => "LoRA: rank and adapted modules (trainable parameters, memory per device)", "LoRA : rang et modules adaptés (paramètres entraînés, mémoire par appareil)";
    LoraAttention => "Attention (q, k, v, o)", "Attention (q, k, v, o)";
    LoraAllLinear => "Every linear layer", "Toutes les couches linéaires";
    DoesNotFit => "does not fit", "ne tient pas";
    FitsUpTo => "Fits as set up with up to {0} tokens per sequence, or up to {1} sequences per micro-batch.", "Tient tel quel jusqu'à {0} tokens par séquence, ou jusqu'à {1} séquences par micro-batch.";
    ContextParallel => "Context parallelism (GPUs per sequence)", "Parallélisme de contexte (GPU par séquence)";
    Ulysses => "Ulysses sequence parallelism (GPUs per sequence)", "Parallélisme de séquence Ulysses (GPU par séquence)";
    TrainTensorParallel => "Tensor parallelism (GPUs per layer)", "Parallélisme de tenseurs (GPU par couche)";
    SequenceParallel => "Sequence parallelism with tensor parallelism (Megatron)", "Parallélisme de séquence avec celui de tenseurs (Megatron)";
    Batching => "Batching of samples", "Mise en lots des échantillons";
    MeanSample => "Mean sample length (tokens, 0: fills the sequence)", "Longueur moyenne d'un échantillon (jetons, 0 : remplit la séquence)";
    DeviceMap => "Split the layers over the GPUs (device_map)", "Répartir les couches sur les GPU (device_map)";
    NoneEnough => "None of these is enough: a bigger card, or more GPUs.", "Aucune ne suffit : une carte plus grande, ou plus de GPU.";
    Zero => "ZeRO stage", "Étape ZeRO";
    Offload => "Offload to CPU", "Déchargement vers le CPU";
    DatasetTokens => "Dataset (tokens)", "Jeu de données (tokens)";
    Epochs => "Epochs", "Époques";
    Hardware => "Hardware", "Matériel";
    Device => "Device", "Appareil";
    NoDevice => "— none —", "— aucun —";
    MyMachine => "My machine", "Ma machine";
    Gpus => "GPUs", "GPU";
    Vram => "GPU memory (GiB)", "Mémoire GPU (Gio)";
    Ram => "RAM (GiB)", "RAM (Gio)";
    IsMac => "Apple Silicon (unified memory)", "Apple Silicon (mémoire unifiée)";
    Costs => "Cost settings", "Hypothèses de coût";
    KwhPrice => "Electricity (USD per kWh)", "Électricité (USD par kWh)";
    HoursPerDay => "Hours of use per day", "Heures d'usage par jour";
    Disk => "Disk", "Disque";
    DiskHint => "the download: it fits on disk, which says nothing about running", "le téléchargement : tenir sur le disque ne dit rien de l'exécution";
    Vram1 => "VRAM per device", "VRAM par appareil";
    RamCard => "System RAM", "RAM système";
    RamHint => "beside the accelerator", "à côté de l'accélérateur";
    RamCpuHint => "the whole model runs from RAM", "tout le modèle tourne depuis la RAM";
    Compute => "Compute", "Calcul";
    PerToken => "per token", "par token";
    Breakdown => "Memory breakdown", "Détail de la mémoire";
    Total => "Total", "Total";
    Range => "range", "fourchette";
    Exact => "exact", "exact";
    Formula => "Formula", "Formule";
    Assumptions => "Assumptions", "Hypothèses";
    Verdict => "On this device", "Sur cet appareil";
    FitCol => "Fit", "Verdict";
    Fits => "fits", "tient";
    OffloadV => "runs with offload", "tourne avec déchargement";
    CpuV => "CPU only", "CPU seul";
    NoV => "does not fit", "ne tient pas";
    CannotRunV => "cannot run", "ne tourne pas";
    CannotLoad => "cannot load this model", "ne charge pas ce modèle";
    Headroom => "headroom", "marge";
    RefusedMemoryFits => "the memory alone would fit ({0}% headroom)", "la mémoire seule tiendrait ({0} % de marge)";
    Speed => "Speed", "Vitesse";
    Decode => "Generation", "Génération";
    Prefill => "Prompt processing", "Traitement du prompt";
    Ttft => "Time to first token", "Temps jusqu'au premier token";
    Aggregate => "All requests together", "Toutes les requêtes ensemble";
    LimitedBy => "limited by", "limité par";
    TrainingTime => "Training time", "Durée d'entraînement";
    RunCost => "Cost of the run", "Coût de l'entraînement";
    PerMillionTokens => "$ per million tokens", "$ par million de tokens";
    PerMillion => "per million tokens", "par million de tokens";
    BreakEven => "buying beats renting after", "acheter bat la location après";
    Months => "months", "mois";
    RunWith => "Run it with", "Lancer avec";
    NoCommand => "No command: this runtime cannot load the model as asked (the warning above says why).", "Pas de commande : ce runtime ne peut pas charger le modèle ainsi (l'avertissement plus haut dit pourquoi).";
    Chart => "Memory versus context", "Mémoire selon le contexte";
    Capacity => "capacity", "capacité";
    SeedTable => "Storage per billion parameters", "Espace par milliard de paramètres";
    Precision => "Precision", "Précision";
    PerBillion => "Per 1B parameters", "Par 1B de paramètres";
    Uses => "Common uses", "Utilisations courantes";
    SeedOther => "Your format is not one of the guide's five; measured here:", "Votre format n'est pas dans le tableau du guide ; mesuré ici :";
    BitsPerWeight => "bits per weight", "bits par poids";
    Devices => "Which devices fit", "Quels appareils conviennent";
    All => "All", "Tous";
    GpusK => "GPUs", "GPU";
    AppleK => "Macs", "Mac";
    ApusK => "Shared-memory PCs", "PC à mémoire partagée";
    GpuShare => "GPU share of the memory (%)", "Part de la mémoire pour le GPU (%)";
    GpuShareHint => "Empty: the system's default (macOS's working-set limit; Linux's GTT, half the RAM, on a Ryzen AI Max; what DGX OS leaves). Raised with iogpu.wired_limit_mb (macOS), ttm.pages_limit (Linux) or the Variable Graphics Memory (Windows).", "Vide : la valeur par défaut du système (la limite de macOS ; sous Linux, le GTT, la moitié de la RAM, sur un Ryzen AI Max ; ce que laisse DGX OS). Relevée par iogpu.wired_limit_mb (macOS), ttm.pages_limit (Linux) ou la Variable Graphics Memory (Windows).";
    GpuShareDefault => "This machine's default: {0} %.", "Valeur par défaut de cette machine : {0} %.";
    GpuShareBad => "a share between 10 and 100 %", "une part entre 10 et 100 %";
    LaptopsK => "Laptops", "Portables";
    CpusK => "CPUs", "CPU";
    CloudK => "Cloud", "Cloud";
    Price => "Price", "Prix";
    PerHour => "/hour", "/heure";
    TokS => "tok/s", "tok/s";
    ShowMore => "Show more", "Afficher plus";
    Select => "Select", "Choisir";
    Compare => "Compare", "Comparer";
    Pin => "Pin this scenario to compare", "Épingler ce scénario pour comparer";
    PinAnother => "Pin this scenario too", "Épingler aussi ce scénario";
    CompareCaption => "Each difference is against {0}, the first pinned scenario; rows that differ are marked.", "Chaque écart est mesuré par rapport à {0}, le premier scénario épinglé ; les lignes qui diffèrent sont marquées.";
    PinNameLabel => "Name of scenario {0}", "Nom du scénario {0}";
    PinOpen => "Open", "Ouvrir";
    PinOpenLabel => "Open scenario {0} in the inputs", "Ouvrir le scénario {0} dans les champs";
    PinRemove => "Remove", "Retirer";
    PinRemoveLabel => "Remove scenario {0}", "Retirer le scénario {0}";
    Unpin => "Stop comparing", "Arrêter la comparaison";
    Current => "Current", "Actuel";
    CopyLink => "Copy link", "Copier le lien";
    Copied => "Copied", "Copié";
    CopyCommands => "Copy", "Copier";
    Embed => "Embed", "Intégrer";
    EmbedHelp => "Paste this into your documentation; the frame resizes itself.", "Collez ceci dans votre documentation ; le cadre se redimensionne seul.";
    OpenFull => "Open the full calculator", "Ouvrir le calculateur complet";
    Language => "Language", "Langue";
    Theme => "Theme", "Thème";
    IgnoredLink => "Some settings in this link were not understood and were ignored:", "Certains réglages de ce lien n'ont pas été compris et ont été ignorés :";
    FromHub => "Hugging Face", "Hugging Face";
    Quantity => "Quantity", "Grandeur";
    Choose => "Choose", "Choisir";
    LocalFile => "GGUF / files", "GGUF / fichiers";
    HubModel => "Hugging Face model: id or address", "Modèle Hugging Face : identifiant ou adresse";
    HubHint => "org/name, any huggingface.co address, or a GGUF file (org/name/file.gguf, org/name:Q4_K_M). Only config.json and the file headers are read, never the weights.",
        "org/nom, toute adresse huggingface.co, ou un fichier GGUF (org/nom/fichier.gguf, org/nom:Q4_K_M). Seuls config.json et les en-têtes sont lus, jamais les poids.";
    AccessToken => "Access token (gated models)", "Jeton d'accès (modèles protégés)";
    TokenKept => "Kept in this tab's memory only (never in the link, storage or logs) and sent only to", "Gardé dans la mémoire de cet onglet seulement (jamais dans le lien, le stockage ou les journaux) et envoyé seulement à";
    TokenRefused => "A token is only ever sent to huggingface.co or this machine, not to", "Un jeton n'est envoyé qu'à huggingface.co ou à cette machine, pas à";
    ReadModel => "Read model", "Lire le modèle";
    GgufFile => "GGUF file", "Fichier GGUF";
    Reading => "Reading", "Lecture de";
    ReadDone => "Read:", "Lu :";
    Cancel => "Cancel", "Annuler";
    KbOfHeaders => "KB of headers", "Ko d'en-têtes";
    DropFiles => "Drop .gguf files here (every part of a split model), or a config.json with its .safetensors files.", "Déposez ici des fichiers .gguf (toutes les parties d'un modèle découpé), ou un config.json avec ses fichiers .safetensors.";
    ChooseFiles => "or choose files", "ou choisissez des fichiers";
    FilesStayLocal => "Only the headers are read, in this browser; nothing is uploaded.", "Seuls les en-têtes sont lus, dans ce navigateur ; rien n'est envoyé.";
    HubLinked => "The link re-reads this model from Hugging Face when opened (a token never travels in it).", "Le lien relit ce modèle sur Hugging Face à l'ouverture (un jeton n'y voyage jamais).";
    CustomNotLinked => "A model read from a file cannot travel in a link: the link keeps every other setting.", "Un modèle lu depuis un fichier ne peut pas voyager dans un lien : le lien garde tous les autres réglages.";
    Notes => "Notes", "Remarques";
    Stale => "These figures are for the last valid input: a field above cannot be read (see its message).",
        "Ces chiffres sont ceux de la dernière saisie valide : un champ ci-dessus ne peut pas être lu (voir son message).";
    ModelsMatching => "models that match — pick one", "modèles qui correspondent — choisissez-en un";
    Warnings => "Check before you rely on this", "À vérifier avant de vous y fier";
    ConfidenceInferred => "Shape inferred from an unknown family: widened band", "Forme déduite d'une famille inconnue : marge élargie";
    ConfidenceStandIn => "Only a parameter count: another model's shape stands in", "Seul le nombre de paramètres : la forme d'un autre modèle le remplace";
    ConfidenceNote => "Read with caveats", "Lu avec réserves";
    Layers => "Layers", "Couches";
    LayerMixers => "Mixers", "Mélangeurs";
    LayerFfn => "Feed-forward", "Feed-forward";
    LayerParams => "Parameters per layer", "Paramètres par couche";
    LayerCache => "Cache per token / state per sequence (values)", "Cache par token / état par séquence (valeurs)";
    Trainable => "trainable parameters", "paramètres entraînables";
    ActiveParams => "active per token", "actifs par token";
    Footer => "Every figure is computed in your browser by Headroom's Rust core. Exact terms are exact; modelled terms show their range.",
        "Chaque chiffre est calculé dans votre navigateur par le cœur Rust de Headroom. Les postes exacts sont exacts ; les postes modélisés montrent leur fourchette.";
    Error => "Cannot compute", "Calcul impossible";
    LimitWeights => "weight bandwidth", "la bande passante des poids";
    LimitKv => "KV-cache bandwidth", "la bande passante du cache KV";
    LimitCompute => "compute", "le calcul";
    LimitHost => "system RAM", "la RAM système";
    LimitLatency => "per-layer latency", "la latence par couche";
    AnswerNoDevice => "{0} in {1} with {2} needs {3} per device at {4} tokens × {5}. Choose a device to see whether it runs, and how fast.",
        "{0} en {1} avec {2} demande {3} par appareil à {4} tokens × {5}. Choisissez un appareil pour savoir s'il tourne, et à quelle vitesse.";
    AnswerAutoFit => "With --max-model-len auto, vLLM serves {0} tokens a request instead of the model's {1}.", "Avec --max-model-len auto, vLLM sert {0} tokens par requête au lieu des {1} du modèle.";
    AnswerFits => "Runs on {0} with {1}: {2} of {3}.", "Tourne sur {0} avec {1} : {2} sur {3}.";
    AnswerOffload => "Runs on {0} with {1} only by offloading to system RAM: {2} does not fit in {3}.",
        "Tourne sur {0} avec {1} seulement en déchargeant vers la RAM système : {2} ne tient pas dans {3}.";
    AnswerCpu => "Runs on {0} on the CPU only ({1}): {2} in system RAM.", "Tourne sur {0} sur le CPU seulement ({1}) : {2} en RAM système.";
    AnswerNo => "Does not run on {0} with {1}: needs {2}, has {3}. The questions below say what would.",
        "Ne tourne pas sur {0} avec {1} : demande {2}, dispose de {3}. Les questions ci-dessous disent ce qui passerait.";
    AnswerRefused => "Does not run on {0} with {1}: {2}", "Ne tourne pas sur {0} avec {1} : {2}";
    AnswerLayers => "{0} layers on the GPU.", "{0} couches sur le GPU.";
    AnswerSpeed => "About {0} tokens/s per request, limited by {1}.", "Environ {0} tokens/s par requête, limité par {1}.";
    AnswerRun => "The run takes about {0} ({1} to {2}).", "L'entraînement dure environ {0} ({1} à {2}).";
    AnswerRunWaiting => "Of that, {0} ({1} to {2}) waiting on the {3}: gradient and weight exchanges between the GPUs, and offload, that the compute does not hide.", "Dont {0} ({1} à {2}) à attendre {3} : les échanges de gradients et de poids entre GPU, et le déchargement, que le calcul ne masque pas.";
    LinkNvLink => "NVLink", "le NVLink";
    LinkInfinityFabric => "Infinity Fabric", "l'Infinity Fabric";
    LinkEthernet => "cards' Ethernet links", "les liens Ethernet des cartes";
    LinkPcie => "PCIe bus", "le bus PCIe";
    LinkPcieHost => "PCIe bus through system memory (no peer-to-peer)", "le bus PCIe via la mémoire système (sans pair-à-pair)";
    Questions => "Ask the other way round", "Poser la question à l'envers";
    QContext => "Longest context that fits?", "Contexte le plus long qui tient ?";
    QQuant => "Best quantization that fits?", "Meilleure quantification qui tient ?";
    QUsers => "Most concurrent requests at this context?", "Le plus de requêtes simultanées à ce contexte ?";
    QBatch => "Largest micro-batch?", "Plus grand micro-batch ?";
    QModels => "Which models run on this device?", "Quels modèles tournent sur cet appareil ?";
    QCheapest => "Cheapest device that runs it?", "Appareil le moins cher qui le fait tourner ?";
    QNeedsDevice => "Choose a device for the other questions.", "Choisissez un appareil pour les autres questions.";
    AContext => "Up to {0} tokens per sequence fit entirely on {1}.", "Jusqu'à {0} tokens par séquence tiennent entièrement sur {1}.";
    AContextNone => "No context fits entirely on {0} as set up.", "Aucun contexte ne tient entièrement sur {0} tel quel.";
    AQuant => "{0} is the most faithful format that fits entirely on {1}: {2} of {3}.",
        "{0} est le format le plus fidèle qui tient entièrement sur {1} : {2} sur {3}.";
    AQuantNone => "No format of the ladder fits entirely on {0}.", "Aucun format de l'échelle ne tient entièrement sur {0}.";
    AUsers => "Up to {0} concurrent requests of {1} tokens fit entirely on {2}.", "Jusqu'à {0} requêtes simultanées de {1} tokens tiennent entièrement sur {2}.";
    ABatch => "Up to {0} sequences of {1} tokens per micro-batch fit entirely on {2}.", "Jusqu'à {0} séquences de {1} tokens par micro-batch tiennent entièrement sur {2}.";
    AUsersNone => "Not even one sequence fits entirely on {0}.", "Pas même une séquence ne tient entièrement sur {0}.";
    AModels => "{0} of {1} catalog models run entirely on {2}, each at its most faithful format that fits, fastest first:",
        "{0} des {1} modèles du catalogue tournent entièrement sur {2}, chacun au format le plus fidèle qui tient, du plus rapide au plus lent :";
    AModelsNone => "No catalog model runs entirely on {0}.", "Aucun modèle du catalogue ne tourne entièrement sur {0}.";
    ACheapest => "Where it runs entirely, cheapest first (cloud by the hour, the rest by price):",
        "Là où il tourne entièrement, du moins cher au plus cher (le cloud à l'heure, le reste au prix d'achat) :";
    ACheapestNone => "No catalog device runs it entirely.", "Aucun appareil du catalogue ne le fait tourner entièrement.";
    AtLeastSpeed => "(at least {0} tokens/s, the device table's filter)", "(au moins {0} tokens/s, le filtre du tableau des appareils)";
    UseIt => "Use it", "L'appliquer";
    HelpWeights => "Bytes per weight: BF16 keeps the model as trained; 8-bit formats halve it with little loss; 4-bit ones (Q4_K_M, AWQ, GPTQ, NF4) quarter it with a small loss.",
        "Octets par poids : BF16 garde le modèle tel qu'entraîné ; les formats 8 bits le divisent par deux avec peu de perte ; les 4 bits (Q4_K_M, AWQ, GPTQ, NF4) par quatre avec une petite perte.";
    HelpKv => "The cache of keys and values grows with context × requests: FP8 or Q8_0 halve it for a small quality cost, Q4_0 quarters it.",
        "Le cache des clés et valeurs croît avec contexte × requêtes : FP8 ou Q8_0 le divisent par deux pour une petite perte, Q4_0 par quatre.";
    HelpRuntime => "The program that runs the model: llama.cpp and Ollama run GGUF files on any hardware; vLLM and SGLang serve many users on NVIDIA or AMD GPUs and reserve most of the card up front; Transformers is the reference; MLX runs on Apple silicon.",
        "Le programme qui fait tourner le modèle : llama.cpp et Ollama lisent les GGUF sur tout matériel ; vLLM et SGLang servent beaucoup d'utilisateurs sur GPU NVIDIA ou AMD et réservent d'emblée l'essentiel de la carte ; Transformers est la référence ; MLX tourne sur les puces Apple.";
    HelpFramework => "Sets every knob below the way that framework does by default; any knob changed afterwards stays changed.",
        "Règle chaque paramètre ci-dessous comme ce framework le fait par défaut ; un paramètre changé ensuite le reste.";
    HelpOptimizer => "AdamW keeps two FP32 states per trained parameter (8 bytes); 8-bit AdamW keeps 2 bytes; paged versions move them to CPU memory when the GPU runs short; plain SGD keeps none.",
        "AdamW garde deux états FP32 par paramètre entraîné (8 octets) ; AdamW 8 bits en garde 2 ; les versions paginées les déplacent en mémoire CPU quand le GPU manque ; le SGD simple n'en garde aucun.";
    HelpPrecision => "Mixed precision keeps FP32 master weights beside the BF16 ones (4 more bytes per trained parameter); pure BF16 drops them.",
        "La précision mixte garde des poids maîtres FP32 à côté des BF16 (4 octets de plus par paramètre entraîné) ; le BF16 pur s'en passe.";
    HelpCkpt => "Recomputes activations in the backward pass instead of keeping them: much less memory for about a third more compute; offloaded also moves each layer's input to CPU memory.",
        "Recalcule les activations pendant la rétropropagation au lieu de les garder : beaucoup moins de mémoire pour environ un tiers de calcul en plus ; la version déchargée déplace aussi l'entrée de chaque couche en mémoire CPU.";
    HelpZero => "Splits the training state over the GPUs: stage 1 the optimizer states, 2 the gradients too, 3 the weights too (each GPU then holds a 1/N share).",
        "Répartit l'état d'entraînement entre les GPU : étape 1 les états de l'optimiseur, 2 aussi les gradients, 3 aussi les poids (chaque GPU en garde alors 1/N).";
    HelpOffload => "Moves the optimizer states (or the states and the parameters) to CPU memory: less VRAM, slower steps, more system RAM.",
        "Déplace les états de l'optimiseur (ou les états et les paramètres) en mémoire CPU : moins de VRAM, des pas plus lents, plus de RAM système.";
    HelpReserve => "Memory kept free for the desktop, the OS and other programs: the model gets the rest.",
        "Mémoire laissée libre pour le bureau, le système et les autres programmes : le modèle a le reste.";
    HostRam => "System RAM beside it (GiB)", "RAM système à côté (Gio)";
    HostRamHint => "Empty: not known — an offload's RAM is then said, not checked.", "Vide : inconnue — la RAM d'un déchargement est alors indiquée, pas vérifiée.";
    HostRamBad => "a whole number of GiB, 1 to 65,536", "un nombre entier de Gio, de 1 à 65 536";
    AltWith => "With {0}: {1}.", "Avec {0} : {1}.";
    AltLayers => "{0} layers on the GPU", "{0} couches sur le GPU";
    AltSpeed => "about {0} tokens/s", "environ {0} tokens/s";
    AltSwitch => "Switch to {0}", "Passer à {0}";
    DetectDevice => "Detect my device", "Détecter mon appareil";
    DetectGpu => "Your browser reports a {0} GPU (its family, not the exact card nor its memory).", "Votre navigateur signale un GPU {0} (sa famille, pas la carte exacte ni sa mémoire).";
    DetectNoGpu => "Your browser does not expose its GPU (WebGPU off, blocked or absent).", "Votre navigateur n'expose pas son GPU (WebGPU désactivé, bloqué ou absent).";
    DetectRam => "At least {0} GB of RAM (browsers report 8 at most).", "Au moins {0} Go de RAM (les navigateurs en signalent 8 au plus).";
    DetectThreads => "{0} CPU threads.", "{0} threads CPU.";
    DetectPick => "A guess from the family: pick your card below. Nothing is sent anywhere.", "Une supposition d'après la famille : choisissez votre carte ci-dessous. Rien n'est envoyé nulle part.";
    DetectUnsure => "Not enough to name a device: choose it, or give “my machine”. Nothing is sent anywhere.", "Pas assez pour nommer un appareil : choisissez-le, ou indiquez « ma machine ». Rien n'est envoyé nulle part.";
    GibUnit => " GiB", "\u{a0}Gio";
    GbUnit => " GB", "\u{a0}Go";
    TibUnit => " TiB", "\u{a0}Tio";
    TbUnit => " TB", "\u{a0}To";
    SizeUnits => "Size units", "Unités de taille";
    Measured => "Measured", "Mesuré";
    MeasuredIntro => "Published measurements of this model, format and device, each beside the estimate for the same setting (its tokens, one sequence, its runtime).", "Mesures publiées pour ce modèle, ce format et cet appareil, chacune à côté de l'estimation au même réglage (ses tokens, une séquence, son moteur).";
    MeasuredTest => "Test", "Test";
    MeasuredValue => "Measured", "Mesuré";
    MeasuredEstimate => "Estimate there", "Estimation au même réglage";
    MeasuredWhere => "Hardware · runtime · date", "Matériel · moteur · date";
    MeasuredSource => "Source", "Source";
    NoEstimateThere => "none (does not fit, or the device's compute is not known)", "aucune (ne tient pas, ou la puissance de l'appareil n'est pas connue)";
    MinSpeed => "At least (tokens/s) ", "Au moins (tokens/s) ";
    FilterNotApplied => "no speed filter applied", "aucun filtre de vitesse appliqué";
    NoDeviceMatches => "No device matches these filters.", "Aucun appareil ne correspond à ces filtres.";
    UnitsBoth => "GB (GiB)", "Go (Gio)";
    UnitsGb => "GB", "Go";
    UnitsGib => "GiB", "Gio";
    StartFrom => "Start from", "Partir de";
    GoalChat => "Chat on my GPU at 8K", "Discuter sur mon GPU à 8K";
    GoalChatHelp => "llama.cpp with Q4_K_M, 8,192 tokens, one conversation", "llama.cpp en Q4_K_M, 8 192 tokens, une conversation";
    GoalServe => "Serve 32 users", "Servir 32 utilisateurs";
    GoalServeHelp => "vLLM with the model's own weights, 32 requests of 8,192 tokens at once", "vLLM avec les poids du modèle, 32 requêtes de 8 192 tokens à la fois";
    GoalLora => "LoRA (TRL defaults)", "LoRA (réglages de TRL)";
    GoalLoraHelp => "TRL SFTTrainer: rank 16 on every linear layer, 1,024-token sequences, micro-batch 8", "SFTTrainer de TRL : rang 16 sur chaque couche linéaire, séquences de 1 024 tokens, micro-batch 8";
    GoalQlora => "QLoRA recipe", "Recette QLoRA";
    GoalQloraHelp => "NF4 base, rank 64 on every linear layer, paged 8-bit AdamW, gradient checkpointing, 2,048 tokens", "Base NF4, rang 64 sur chaque couche linéaire, AdamW 8 bits paginé, checkpointing, 2 048 tokens";
    GoalFullNode => "Full fine-tune on a node", "Entraînement complet sur un nœud";
    GoalFullNodeHelp => "8 GPUs (H100 unless one is chosen), DeepSpeed ZeRO-3, 4,096-token sequences", "8 GPU (H100 sauf si un autre est choisi), DeepSpeed ZeRO-3, séquences de 4 096 tokens";
    FindDevice => "Find a device (name or memory)", "Trouver un appareil (nom ou mémoire)";
    NoDeviceFound => "No catalog device matches: try a model number (4090), a family (M3 Max) or a size (24 GB), or use “my machine” below.",
        "Aucun appareil du catalogue ne correspond : essayez un numéro (4090), une famille (M3 Max) ou une taille (24 Go), ou « ma machine » ci-dessous.";
    DevicesMatching => "{0} devices match — pick one:", "{0} appareils correspondent — choisissez-en un :";
}

/// The words for an option id of the training controls (never the raw id on the page).
pub fn option_label(id: &str, lang: Lang) -> String {
    let (en, fr) = match id {
        "adamw" => ("AdamW (32-bit states)", "AdamW (états 32 bits)"),
        "adamw-8bit" => ("AdamW 8-bit (bitsandbytes)", "AdamW 8 bits (bitsandbytes)"),
        "paged-adamw" => ("Paged AdamW", "AdamW paginé"),
        "paged-adamw-8bit" => ("Paged AdamW 8-bit", "AdamW 8 bits paginé"),
        "sgd" => ("SGD", "SGD"),
        "sgd-momentum" => ("SGD with momentum", "SGD avec moment"),
        "adafactor" => ("Adafactor", "Adafactor"),
        "lion" => ("Lion", "Lion"),
        "mixed" => ("Mixed precision (FP32 master weights)", "Précision mixte (poids maîtres FP32)"),
        "mixed-fp32-grads" => ("Mixed, FP32 gradients", "Mixte, gradients FP32"),
        "pure-bf16" => ("Pure BF16", "BF16 pur"),
        "fp32" => ("FP32", "FP32"),
        "amp" => ("AMP: FP32 weights, BF16 autocast", "AMP : poids FP32, autocast BF16"),
        "offloaded" => ("Offloaded to CPU (Unsloth)", "Déchargé vers le CPU (Unsloth)"),
        "loss-full" => ("Full FP32 logits (transformers)", "Logits FP32 complets (transformers)"),
        "loss-chunked" => ("Chunked (torchtune, LitGPT)", "Par morceaux (torchtune, LitGPT)"),
        "loss-fused" => ("Fused (Liger, Unsloth, CCE)", "Fusionnée (Liger, Unsloth, CCE)"),
        "custom" => ("Custom (every knob by hand)", "Personnalisé (chaque réglage à la main)"),
        "padded" => ("Padded to the longest", "Remplis jusqu'au plus long"),
        "packed" => ("Packed into full sequences", "Empaquetés en séquences pleines"),
        "padding-free" => ("Padding-free", "Sans remplissage"),
        "selective" => ("Selective (per operation)", "Sélectif (par opération)"),
        "full" => ("Full (every layer)", "Complet (chaque couche)"),
        "optimizer" => ("Optimizer states to CPU", "États de l'optimiseur sur le CPU"),
        "all" => ("Optimizer states and parameters to CPU", "États et paramètres sur le CPU"),
        "none" => ("None", "Aucun"),
        other => return other.to_string(),
    };
    match lang {
        Lang::En => en.to_string(),
        Lang::Fr => fr.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use headroom_core::training::{Checkpointing, Offload, Optimizer, TrainPrecision};

    #[test]
    fn every_training_option_has_words_in_both_languages() {
        let ids: Vec<&str> = Optimizer::ALL
            .iter()
            .map(|o| o.id())
            .chain(TrainPrecision::ALL.iter().map(|p| p.id()))
            .chain(Checkpointing::ALL.iter().map(|c| c.id()))
            .chain([Offload::None, Offload::Optimizer, Offload::OptimizerAndParams].iter().map(|o| o.id()))
            .chain(["loss-full", "loss-chunked", "loss-fused", "custom"])
            .chain(headroom_core::training::Batching::ALL.iter().map(|b| b.id()))
            .collect();
        for id in ids {
            for lang in [Lang::En, Lang::Fr] {
                let label = option_label(id, lang);
                assert!(label != id || matches!(id, "sgd" | "lion" | "adafactor" | "fp32"), "{id} shown raw");
            }
        }
        assert_eq!(option_label("none", Lang::Fr), "Aucun");
    }
}
