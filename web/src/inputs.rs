//! The input panel: model, workload, hardware and cost settings. Every control edits the one
//! scenario signal; nothing here computes an estimate.

use headroom_core::catalog::{self, device::DeviceKind};
use headroom_core::hardware::{DeviceChoice, MyMachine};
use headroom_core::import::hf::parse_config;
use headroom_core::inference::Runtime;
use headroom_core::precision::{ALL_FORMATS, KvDtype, WeightFormat};
use headroom_core::scenario::{DEFAULT_MODEL, MAX_BATCH, MAX_CONTEXT, ModelSource, Scenario};
use headroom_core::text::Lang;
use headroom_core::training::{
    Batching, Checkpointing, Framework, LoraTarget, LoraTargets, LossKernel, Mode, Offload, Optimizer,
    TrainPrecision,
};
use leptos::prelude::*;

use crate::byom::{FilePanel, HubPanel, Reader, read_hub};
use crate::fields::{Choice, CountField, TextField, Toggle};
use crate::i18n::{T, tr};
use crate::state::ui;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Catalog,
    Params,
    Config,
    Hub,
    File,
}

/// Where the model comes from: the catalog (searchable), a bare parameter count, or a pasted or
/// uploaded `config.json`.
#[component]
pub fn ModelInput() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let initial = match ui.hf.get_untracked() {
        Some(_) => Source::Hub,
        None => ui.scenario.with_untracked(|s| match &s.model {
            ModelSource::Catalog(_) => Source::Catalog,
            ModelSource::Params(_) => Source::Params,
            ModelSource::Custom(_) => Source::Config,
        }),
    };
    let reader = Reader::new(ui);
    // A link naming a Hugging Face model reads it on opening (without a token: a gated model
    // then asks for one).
    if let Some(r) = ui.hf.get_untracked() {
        read_hub(reader, r, None);
    }
    let source = RwSignal::new(initial);
    let model_text = RwSignal::new(ui.scenario.with_untracked(|s| match &s.model {
        ModelSource::Catalog(id) => id.clone(),
        _ => DEFAULT_MODEL.to_string(),
    }));
    let model_error = RwSignal::new(None::<String>);
    let params_text = RwSignal::new(ui.scenario.with_untracked(|s| match &s.model {
        ModelSource::Params(p) => headroom_core::number::format_params_in(*p, ui.lang.get_untracked()),
        _ => "7B".to_string(),
    }));
    let params_error = RwSignal::new(None::<String>);
    let config_text = RwSignal::new(String::new());
    let config_error = RwSignal::new(None::<String>);
    // A catalog model chosen elsewhere (a pasted command) shows in the search box.
    let chosen = Memo::new(move |_| {
        ui.scenario.with(|s| match &s.model {
            ModelSource::Catalog(id) => Some(id.clone()),
            _ => None,
        })
    });
    Effect::new(move |_| {
        if let Some(id) = chosen.get()
            && catalog::model(&model_text.get_untracked()).map(|m| m.id) != Ok(id.as_str())
        {
            model_text.set(id);
            source.set(Source::Catalog);
        }
    });

    let choose_catalog = move |text: String| {
        model_text.set(text.clone());
        match catalog::model(&text) {
            Ok(m) => {
                model_error.set(None);
                ui.hf.set(None);
                ui.scenario.update(|s| s.model = ModelSource::Catalog(m.id.into()));
            }
            Err(e) if !text.trim().is_empty() => {
                // Not an id: the models of that family or name, if the words find some.
                let found = catalog::search(&text);
                let msg = match found.as_slice() {
                    [] => e.to_string(),
                    [one] => {
                        model_error.set(None);
                        ui.hf.set(None);
                        ui.scenario.update(|s| s.model = ModelSource::Catalog(one.id.into()));
                        return;
                    }
                    many => {
                        let ids: Vec<&str> = many.iter().take(8).map(|m| m.id).collect();
                        let more =
                            if many.len() > 8 { format!(" (+{})", many.len() - 8) } else { String::new() };
                        format!("{}: {}{more}", tr(lang.get_untracked(), T::ModelsMatching), ids.join(", "))
                    }
                };
                model_error.set(Some(msg));
            }
            Err(_) => model_error.set(None),
        }
    };
    let choose_params = move |text: String| {
        params_text.set(text.clone());
        let l = lang.get_untracked();
        match headroom_core::number::parse_number(&text, l, headroom_core::number::Quantity::Params) {
            Ok(n) if n > 0 => {
                params_error.set(None);
                ui.set_pending("hr-params", false);
                ui.hf.set(None);
                ui.scenario.update(|s| s.model = ModelSource::Params(headroom_core::units::Params::new(n)));
            }
            Ok(_) => {
                params_error.set(Some(headroom_core::number::NumberError::Empty.message(l)));
                ui.set_pending("hr-params", true);
            }
            Err(e) => {
                params_error.set(Some(e.message(l)));
                ui.set_pending("hr-params", true);
            }
        }
    };
    let read_config = move |text: String| match parse_config(text.as_bytes()) {
        Ok(m) => {
            config_error.set(None);
            let name = m.name.clone().unwrap_or_else(|| format!("{} (config.json)", m.architecture.family));
            ui.hf.set(None);
            ui.scenario.update(|s| s.model = ModelSource::Custom(Box::new(m.into_custom(name))));
        }
        Err(e) => config_error.set(Some(e.to_string())),
    };
    let upload = move |ev: leptos::ev::Event| {
        let input: Option<web_sys::HtmlInputElement> =
            ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into(t).ok());
        let Some(file) = input.and_then(|i| i.files()).and_then(|f| f.get(0)) else { return };
        // A config.json is a few kilobytes; refuse anything large before reading it.
        if file.size() > 4.0 * 1024.0 * 1024.0 {
            config_error.set(Some(format!(
                "{} is {:.0} KB; a config.json is a few KB",
                file.name(),
                file.size() / 1024.0
            )));
            return;
        }
        let promise = file.text();
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(promise).await {
                Ok(v) => {
                    let text = v.as_string().unwrap_or_default();
                    config_text.set(text.clone());
                    read_config(text);
                }
                Err(_) => config_error.set(Some("the file could not be read".into())),
            }
        });
    };

    let summary = move || {
        ui.result.with(|r| match r {
            Ok((e, _)) => {
                let l = lang.get();
                // A bare count is named in the page's own way of writing numbers (7,5B in French).
                let name = ui.scenario.with(|s| match &s.model {
                    ModelSource::Params(p) => headroom_core::number::format_params_in(*p, l),
                    _ => e.model.name.clone(),
                });
                let mut s = format!(
                    "{} · {} {}",
                    name,
                    headroom_core::text::format_int(e.model.params_total.get(), l),
                    tr(l, T::Parameters).to_lowercase()
                );
                if e.model.params_active != e.model.params_total {
                    s.push_str(&format!(
                        " ({} {})",
                        headroom_core::text::format_int(e.model.params_active.get(), l),
                        tr(l, T::ActiveParams)
                    ));
                }
                if let Some(a) = &e.model.architecture {
                    s.push_str(" · ");
                    s.push_str(a);
                }
                s
            }
            Err(_) => String::new(),
        })
    };

    let tab = move |which: Source, label: T, id: &'static str| {
        view! {
            <button type="button" role="tab" id=id class="hr-tab"
                aria-selected=move || (source.get() == which).to_string()
                tabindex=move || if source.get() == which { "0" } else { "-1" }
                on:click=move |_| {
                    source.set(which);
                    match which {
                        Source::Catalog => choose_catalog(model_text.get_untracked()),
                        Source::Params => choose_params(params_text.get_untracked()),
                        Source::Config | Source::Hub | Source::File => {}
                    }
                }>
                {move || tr(lang.get(), label)}
            </button>
        }
    };

    view! {
        <fieldset class="hr-card hr-model">
            <legend>{move || tr(lang.get(), T::Model)}</legend>
            <div class="hr-tabs" role="tablist" aria-label=move || tr(lang.get(), T::Model)
                on:keydown=crate::fields::tab_keys>
                {tab(Source::Catalog, T::FromCatalog, "hr-source-catalog")}
                {tab(Source::Params, T::ParamCount, "hr-source-params")}
                {tab(Source::Config, T::ConfigJson, "hr-source-config")}
                {tab(Source::Hub, T::FromHub, "hr-source-hub")}
                {tab(Source::File, T::LocalFile, "hr-source-file")}
            </div>
            {move || match source.get() {
                Source::Catalog => view! {
                    <div class="hr-field">
                        <label for="hr-model">{move || tr(lang.get(), T::SearchModels)}</label>
                        <input id="hr-model" type="search" list="hr-model-list" autocomplete="off"
                            value=model_text.get_untracked()
                            prop:value=move || model_text.get()
                            aria-invalid=move || model_error.get().is_some().to_string()
                            on:change=move |ev| choose_catalog(event_target_value(&ev))
                            on:input=move |ev| {
                                let v = event_target_value(&ev);
                                if catalog::model(&v).is_ok() { choose_catalog(v) } else { model_text.set(v) }
                            }/>
                        <datalist id="hr-model-list">
                            {catalog::models().iter().map(|m| view! {
                                <option value=m.id>{format!("{} · {}", m.name, m.family_tags())}</option>
                            }).collect_view()}
                        </datalist>
                        <small class="hr-error">{move || model_error.get()}</small>
                    </div>
                }.into_any(),
                Source::Params => view! {
                    <div class="hr-field">
                        <label for="hr-params">{move || tr(lang.get(), T::Parameters)}</label>
                        <input id="hr-params" type="text" inputmode="decimal"
                            value=params_text.get_untracked()
                            prop:value=move || params_text.get()
                            aria-invalid=move || params_error.get().is_some().to_string()
                            aria-describedby="hr-params-error"
                            on:input=move |ev| choose_params(event_target_value(&ev))/>
                        <small id="hr-params-error" class="hr-error">{move || params_error.get()}</small>
                    </div>
                }.into_any(),
                Source::Config => view! {
                    <div class="hr-field">
                        <label for="hr-config">{move || tr(lang.get(), T::PasteConfig)}</label>
                        <textarea id="hr-config" rows="5" spellcheck="false"
                            prop:value=move || config_text.get()
                            on:input=move |ev| config_text.set(event_target_value(&ev))></textarea>
                        <div class="hr-field-row">
                            <button type="button" id="hr-config-read"
                                on:click=move |_| read_config(config_text.get_untracked())>
                                {move || tr(lang.get(), T::ReadConfig)}
                            </button>
                            <label class="hr-file">
                                <span>{move || tr(lang.get(), T::UploadConfig)}</span>
                                <input type="file" id="hr-config-file" accept=".json,application/json" on:change=upload/>
                            </label>
                        </div>
                        <small id="hr-config-error" class="hr-error" role="alert">{move || config_error.get()}</small>
                    </div>
                }.into_any(),
                Source::Hub => view! { <HubPanel reader=reader/> }.into_any(),
                Source::File => view! { <FilePanel reader=reader/> }.into_any(),
            }}
            <p class="hr-model-summary" id="hr-model-summary">{summary}</p>
        </fieldset>
    }
}

/// Inference, full fine-tuning, LoRA, QLoRA.
#[component]
pub fn ModeTabs() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let tab = move |mode: Mode, label: T| {
        view! {
            <button type="button" role="tab" class="hr-tab" id=format!("hr-mode-{}", mode.id())
                aria-selected=move || (ui.scenario.with(|s| s.mode) == mode).to_string()
                tabindex=move || if ui.scenario.with(|s| s.mode) == mode { "0" } else { "-1" }
                on:click=move |_| ui.scenario.update(|s| s.switch_mode(mode))>
                {move || tr(lang.get(), label)}
            </button>
        }
    };
    view! {
        <div class="hr-card">
            <div class="hr-tabs hr-mode-tabs" role="tablist" aria-label=move || tr(lang.get(), T::Mode)
                on:keydown=crate::fields::tab_keys>
                {tab(Mode::Inference, T::Inference)}
                {tab(Mode::Full, T::FullFt)}
                {tab(Mode::Lora, T::Lora)}
                {tab(Mode::Qlora, T::Qlora)}
            </div>
        </div>
    }
}

fn label_of(lang: Lang, t: T) -> Signal<&'static str> {
    let _ = lang;
    let ui = ui();
    Signal::derive(move || tr(ui.lang.get(), t))
}

/// Precision, context, concurrency, runtime, and the training settings.
#[component]
pub fn WorkloadInputs() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let s = ui.scenario;
    // Memos, so the controls under them are rebuilt only when the mode changes, not on every
    // change of the scenario (which would close the folded sections and drop their state).
    let training = Memo::new(move |_| s.with(|s| s.mode.is_training()));
    let training = move || training.get();
    let lora = Memo::new(move |_| s.with(|s| matches!(s.mode, Mode::Lora | Mode::Qlora)));
    let lora = move || lora.get();
    // Whether the model has an encoder to leave out (loaded, or skipped as text only).
    let multimodal = Memo::new(move |_| ui.result.with(|r| r.as_ref().is_ok_and(|(e, _)| e.has_encoders())));
    let multimodal = move || multimodal.get();

    let weights_options = Signal::derive(move || {
        let mut v = vec![(String::new(), tr(lang.get(), T::ModelsOwn).to_string())];
        v.extend(ALL_FORMATS.iter().map(|f| (f.id(), f.label())));
        v
    });
    let weights_selected = Signal::derive(move || s.with(|s| s.weights.map(|w| w.id()).unwrap_or_default()));
    let kv_options =
        Signal::derive(|| KvDtype::ALL.iter().map(|k| (k.id().to_string(), k.id().to_uppercase())).collect());
    // Which runtimes refuse the model (their own lists of models: `loads`), worked out when the
    // checkpoint the estimate read or the vLLM release changes, not on every input.
    let checkpoint = Memo::new(move |_| {
        let c = ui.result.with(|r| r.as_ref().map(|(e, _)| e.model.checkpoint.clone()).unwrap_or_default());
        (c, s.with(|s| s.vllm.version))
    });
    let refusing = Memo::new(move |_| checkpoint.with(|(c, v)| headroom_core::loads::refusing(c, *v)));
    let runtime_options = Signal::derive(move || {
        let l = lang.get();
        let mut v = vec![(String::new(), tr(l, T::ByFormat).to_string())];
        refusing.with(|no| {
            v.extend(Runtime::ALL.iter().map(|r| {
                let label = if no.contains(r) {
                    format!("{} — {}", r.label(), tr(l, T::CannotLoad))
                } else {
                    r.label().to_string()
                };
                (r.id().to_string(), label)
            }))
        });
        v
    });
    let optimizers = Signal::derive(move || {
        let l = lang.get();
        Optimizer::ALL.iter().map(|o| (o.id().to_string(), crate::i18n::option_label(o.id(), l))).collect()
    });
    let label = move |id: &str| crate::i18n::option_label(id, lang.get());
    let precisions = Signal::derive(move || {
        TrainPrecision::ALL.iter().map(|p| (p.id().to_string(), label(p.id()))).collect()
    });
    let ckpts = Signal::derive(move || {
        Checkpointing::ALL.iter().map(|c| (c.id().to_string(), label(c.id()))).collect()
    });
    let offloads = Signal::derive(move || {
        [Offload::None, Offload::Optimizer, Offload::OptimizerAndParams]
            .iter()
            .map(|o| (o.id().to_string(), label(o.id())))
            .collect()
    });
    let zeros = Signal::derive(|| (0..=3).map(|z: u8| (z.to_string(), format!("ZeRO-{z}"))).collect());
    let frameworks = Signal::derive(move || {
        Framework::ALL
            .iter()
            .map(|f| {
                let name = if *f == Framework::Custom { label("custom") } else { f.label().to_string() };
                (f.id().to_string(), name)
            })
            .collect()
    });
    let losses = Signal::derive(move || {
        LossKernel::ALL.iter().map(|k| (k.id().to_string(), label(&format!("loss-{}", k.id())))).collect()
    });
    let batchings =
        Signal::derive(move || Batching::ALL.iter().map(|b| (b.id().to_string(), label(b.id()))).collect());
    let qlora = Memo::new(move |_| s.with(|s| s.mode == Mode::Qlora));
    let qlora = move || qlora.get();

    view! {
        <fieldset class="hr-card">
            <legend>{move || tr(lang.get(), T::Mode)}</legend>
            <Choice id="hr-weights" help=T::HelpWeights label=label_of(lang.get_untracked(), T::WeightPrecision) options=weights_options
                selected=weights_selected
                set=Callback::new(move |v: String| s.update(|s| s.weights = WeightFormat::parse(&v).ok()))/>
            {move || (!training()).then(|| view! {
                <Choice id="hr-kv" help=T::HelpKv label=label_of(lang.get_untracked(), T::KvPrecision) options=kv_options
                    selected=Signal::derive(move || s.with(|s| s.kv.id().to_string()))
                    set=Callback::new(move |v: String| if let Ok(k) = KvDtype::parse(&v) { s.update(|s| s.kv = k) })/>
            })}
            <CountField id="hr-context" label=label_of(lang.get_untracked(), T::Context)
                value=Signal::derive(move || s.with(|s| s.context))
                set=Callback::new(move |v| s.update(|s| s.context = v))
                min=1 max=MAX_CONTEXT log_slider=true/>
            <CountField id="hr-batch"
                label=Signal::derive(move || tr(lang.get(), if training() { T::MicroBatch } else { T::Concurrency }))
                value=Signal::derive(move || s.with(|s| s.batch))
                set=Callback::new(move |v| s.update(|s| s.batch = v))
                min=1 max=MAX_BATCH log_slider=true/>
            {move || (!training()).then(|| view! {
                <Choice id="hr-runtime" help=T::HelpRuntime label=label_of(lang.get_untracked(), T::Runtime) options=runtime_options
                    selected=Signal::derive(move || s.with(|s| s.runtime.map(|r| r.id().to_string()).unwrap_or_default()))
                    set=Callback::new(move |v: String| s.update(|s| s.runtime = Runtime::parse(&v).ok()))/>
            })}
            <Toggle id="hr-fa" label=label_of(lang.get_untracked(), T::FlashAttention)
                checked=flag_value(s, |x| x.flash_attention)
                set=flag_set(s, |x, v| x.flash_attention = v)/>
            // A multimodal model: its encoder can be left out.
            {move || multimodal().then(|| view! {
                <Toggle id="hr-text-only" label=label_of(lang.get_untracked(), T::TextOnly)
                    checked=flag_value(s, |x| x.text_only)
                    set=flag_set(s, |x, v| x.text_only = v)/>
            })}
            {move || (!training()).then(|| view! { <LlamaCppInputs/> })}
            {move || (!training()).then(|| view! { <VllmInputs/> })}
            {move || training().then(|| view! {
                <div class="hr-training">
                    <Choice id="hr-framework" help=T::HelpFramework label=label_of(lang.get_untracked(), T::Framework) options=frameworks
                        selected=Signal::derive(move || s.with(|s| s.train.framework.id().to_string()))
                        set=Callback::new(move |v: String| if let Ok(f) = Framework::parse(&v) { s.update(|s| s.apply_framework(f)) })/>
                    <Choice id="hr-loss" label=label_of(lang.get_untracked(), T::LossKernel) options=losses
                        selected=Signal::derive(move || s.with(|s| s.train.loss.id().to_string()))
                        set=Callback::new(move |v: String| if let Ok(k) = LossKernel::parse(&v) { s.update(|s| s.train.loss = k) })/>
                    <Choice id="hr-optimizer" help=T::HelpOptimizer label=label_of(lang.get_untracked(), T::Optimizer) options=optimizers
                        selected=Signal::derive(move || s.with(|s| s.optimizer.id().to_string()))
                        set=Callback::new(move |v: String| if let Ok(o) = Optimizer::parse(&v) { s.update(|s| s.optimizer = o) })/>
                    {move || (!lora()).then(|| view! {
                        <Choice id="hr-precision" help=T::HelpPrecision label=label_of(lang.get_untracked(), T::TrainPrecision) options=precisions
                            selected=Signal::derive(move || s.with(|s| s.precision.id().to_string()))
                            set=Callback::new(move |v: String| if let Ok(p) = TrainPrecision::parse(&v) { s.update(|s| s.precision = p) })/>
                    })}
                    {move || lora().then(|| view! {
                        <CountField id="hr-rank" label=label_of(lang.get_untracked(), T::LoraRank)
                            value=Signal::derive(move || s.with(|s| s.lora_rank))
                            set=Callback::new(move |v| s.update(|s| s.lora_rank = v))
                            min=1 max=65_536/>
                        <LoraTargetsField/>
                        <Toggle id="hr-lora-dropout" label=label_of(lang.get_untracked(), T::LoraDropout)
                            checked=flag_value(s, |x| x.train.lora_dropout)
                            set=flag_set(s, |x, v| x.train.lora_dropout = v)/>
                        <Toggle id="hr-dora" label=label_of(lang.get_untracked(), T::Dora)
                            checked=flag_value(s, |x| x.train.dora)
                            set=flag_set(s, |x, v| x.train.dora = v)/>
                        <Toggle id="hr-adapters-fp32" label=label_of(lang.get_untracked(), T::AdaptersFp32)
                            checked=flag_value(s, |x| x.train.adapters_fp32)
                            set=flag_set(s, |x, v| x.train.adapters_fp32 = v)/>
                    })}
                    {move || qlora().then(|| view! {
                        <Toggle id="hr-kbit-upcast" label=label_of(lang.get_untracked(), T::KbitUpcast)
                            checked=flag_value(s, |x| x.train.kbit_upcast)
                            set=flag_set(s, |x, v| x.train.kbit_upcast = v)/>
                    })}
                    <Choice id="hr-ckpt" help=T::HelpCkpt label=label_of(lang.get_untracked(), T::Checkpointing) options=ckpts
                        selected=Signal::derive(move || s.with(|s| s.checkpointing.id().to_string()))
                        set=Callback::new(move |v: String| if let Ok(c) = Checkpointing::parse(&v) { s.update(|s| s.checkpointing = c) })/>
                    {move || s.with(|s| s.checkpointing.recomputes()).then(|| view! {
                        <CountField id="hr-ckpt-every" label=label_of(lang.get_untracked(), T::CkptEvery)
                            value=Signal::derive(move || s.with(|s| s.train.ckpt_every))
                            set=Callback::new(move |v| s.update(|s| s.train.ckpt_every = v))
                            min=1 max=1024/>
                    })}
                    <CountField id="hr-grad-accum" label=label_of(lang.get_untracked(), T::GradAccum)
                        value=Signal::derive(move || s.with(|s| s.train.grad_accum))
                        set=Callback::new(move |v| s.update(|s| s.train.grad_accum = v))
                        min=1 max=1 << 20/>
                    <Toggle id="hr-oib" label=label_of(lang.get_untracked(), T::OptimizerInBackward)
                        checked=flag_value(s, |x| x.train.optimizer_in_backward)
                        set=flag_set(s, |x, v| x.train.optimizer_in_backward = v)/>
                    <Toggle id="hr-act-offload" label=label_of(lang.get_untracked(), T::ActivationOffload)
                        checked=flag_value(s, |x| x.train.activation_offload)
                        set=flag_set(s, |x, v| x.train.activation_offload = v)/>
                    <Toggle id="hr-compile" label=label_of(lang.get_untracked(), T::Compile)
                        checked=flag_value(s, |x| x.train.compile)
                        set=flag_set(s, |x, v| x.train.compile = v)/>
                    {move || (s.with(|s| s.mode == Mode::Full)).then(|| view! {
                        <Toggle id="hr-float8" label=label_of(lang.get_untracked(), T::Float8)
                            checked=flag_value(s, |x| x.train.fp8)
                            set=flag_set(s, |x, v| x.train.fp8 = v)/>
                    })}
                    <CountField id="hr-gpus-train" label=label_of(lang.get_untracked(), T::Gpus)
                        value=Signal::derive(move || s.with(|s| s.gpus))
                        set=Callback::new(move |v| s.update(|s| s.gpus = v))
                        min=1 max=4096/>
                    <Toggle id="hr-device-map" label=label_of(lang.get_untracked(), T::DeviceMap)
                        checked=flag_value(s, |x| x.train.device_map)
                        set=flag_set(s, |x, v| x.train.device_map = v)/>
                    <CountField id="hr-cp" label=label_of(lang.get_untracked(), T::ContextParallel)
                        value=Signal::derive(move || s.with(|s| s.train.cp))
                        set=Callback::new(move |v| s.update(|s| s.train.cp = v))
                        min=1 max=4096/>
                    <CountField id="hr-ulysses" label=label_of(lang.get_untracked(), T::Ulysses)
                        value=Signal::derive(move || s.with(|s| s.train.ulysses))
                        set=Callback::new(move |v| s.update(|s| s.train.ulysses = v))
                        min=1 max=4096/>
                    <CountField id="hr-tp-train" label=label_of(lang.get_untracked(), T::TrainTensorParallel)
                        value=Signal::derive(move || s.with(|s| s.tp))
                        set=Callback::new(move |v| s.update(|s| s.tp = v))
                        min=1 max=4096/>
                    {move || (s.with(|s| s.tp > 1)).then(|| view! {
                        <Toggle id="hr-seq-parallel" label=label_of(lang.get_untracked(), T::SequenceParallel)
                            checked=flag_value(s, |x| x.train.sequence_parallel)
                            set=flag_set(s, |x, v| x.train.sequence_parallel = v)/>
                    })}
                    <Choice id="hr-zero" help=T::HelpZero label=label_of(lang.get_untracked(), T::Zero) options=zeros
                        selected=Signal::derive(move || s.with(|s| s.zero.to_string()))
                        set=Callback::new(move |v: String| if let Ok(z) = v.parse::<u8>() { s.update(|s| s.zero = z) })/>
                    <Choice id="hr-offload" help=T::HelpOffload label=label_of(lang.get_untracked(), T::Offload) options=offloads
                        selected=Signal::derive(move || s.with(|s| s.offload.id().to_string()))
                        set=Callback::new(move |v: String| if let Ok(o) = Offload::parse(&v) { s.update(|s| s.offload = o) })/>
                    {move || (s.with(|s| s.zero > 0 && s.train.framework != Framework::Fsdp)).then(|| view! {
                        <CountField id="hr-reduce-bucket" label=label_of(lang.get_untracked(), T::ReduceBucket)
                            value=Signal::derive(move || s.with(|s| s.train.reduce_bucket))
                            set=Callback::new(move |v: u64| s.update(|s| s.train.reduce_bucket = v))
                            min=0 max=headroom_core::training::MAX_BUCKET/>
                        <Choice id="hr-overlap-comm" label=label_of(lang.get_untracked(), T::OverlapComm) options=Signal::derive(move || {
                                let l = lang.get();
                                vec![
                                    (String::new(), tr(l, T::VllmPrefixDefault).to_string()),
                                    ("on".to_string(), tr(l, T::On).to_string()),
                                    ("off".to_string(), tr(l, T::Off).to_string()),
                                ]
                            })
                            selected=Signal::derive(move || s.with(|s| match s.train.overlap_comm {
                                Some(true) => "on".to_string(),
                                Some(false) => "off".to_string(),
                                None => String::new(),
                            }))
                            set=Callback::new(move |v: String| s.update(|s| s.train.overlap_comm = match v.as_str() {
                                "on" => Some(true),
                                "off" => Some(false),
                                _ => None,
                            }))/>
                    })}
                    <CountField id="hr-tokens" label=label_of(lang.get_untracked(), T::DatasetTokens)
                        value=Signal::derive(move || s.with(|s| s.dataset_tokens))
                        set=Callback::new(move |v| s.update(|s| s.dataset_tokens = v))
                        min=1 max=1 << 50/>
                    <Choice id="hr-batching" label=label_of(lang.get_untracked(), T::Batching) options=batchings
                        selected=Signal::derive(move || s.with(|s| s.train.batching.id().to_string()))
                        set=Callback::new(move |v: String| if let Ok(b) = Batching::parse(&v) { s.update(|s| s.train.batching = b) })/>
                    <CountField id="hr-mean-sample" label=label_of(lang.get_untracked(), T::MeanSample)
                        value=Signal::derive(move || s.with(|s| s.train.mean_sample))
                        set=Callback::new(move |v| s.update(|s| s.train.mean_sample = v))
                        min=0 max=MAX_CONTEXT/>
                    <CountField id="hr-epochs" label=label_of(lang.get_untracked(), T::Epochs)
                        value=Signal::derive(move || s.with(|s| s.epochs))
                        set=Callback::new(move |v| s.update(|s| s.epochs = v))
                        min=1 max=10_000/>
                </div>
            })}
        </fieldset>
    }
}

/// llama.cpp's context parameters that change its buffers (`-ub`, `-b`, `-ctv`, `--swa-full`,
/// `--kv-unified`), folded away: the defaults are llama.cpp's own.
#[component]
fn LlamaCppInputs() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let s = ui.scenario;
    let v_options = Signal::derive(move || {
        let mut v = vec![(String::new(), tr(lang.get(), T::SameAsK).to_string())];
        v.extend(KvDtype::ALL.iter().map(|k| (k.id().to_string(), k.id().to_uppercase())));
        v
    });
    let draft_options = Signal::derive(move || {
        let mut v = vec![(String::new(), tr(lang.get(), T::NoDraft).to_string())];
        v.extend(catalog::models().iter().map(|m| (m.id.to_string(), m.id.to_string())));
        v
    });
    let command_text = RwSignal::new(String::new());
    let command_error = RwSignal::new(None::<String>);
    let command_notes = RwSignal::new(Vec::<String>::new());
    let read_command = move |text: String| match headroom_core::command::parse(&text) {
        Err(e) => {
            command_error.set(Some(headroom_core::command::localized(&e.to_string(), lang.get_untracked())));
            command_notes.set(Vec::new());
        }
        Ok(c) => {
            command_error.set(None);
            let l = lang.get_untracked();
            let mut notes: Vec<String> = c
                .ignored
                .iter()
                .map(|i| {
                    let colon = if l == Lang::Fr { " :" } else { ":" };
                    format!(
                        "{} `{}`{colon} {}",
                        tr(l, T::NotApplied),
                        i.piece,
                        headroom_core::command::localized(&i.reason, l)
                    )
                })
                .collect();
            if let (None, Some(m)) = (&c.catalog, &c.model) {
                notes.push(format!("{} `{m}`", tr(l, T::CommandModelKept)));
            }
            command_notes.set(notes);
            ui.hf.set(ui.hf.get_untracked().filter(|_| c.catalog.is_none()));
            let mut longest = None;
            s.update(|s| {
                if let Some((id, _)) = &c.catalog {
                    s.model = ModelSource::Catalog(id.clone());
                }
                // A pasted command is the whole serving setup: the serving options it does not
                // set go back to their defaults (the vLLM release chosen stays).
                s.vllm = headroom_core::vllm::VllmOptions { version: s.vllm.version, ..Default::default() };
                s.sglang = Default::default();
                longest = c.apply_with_model(s);
            });
            if let Some(n) = longest {
                let note = if c.runtime == Runtime::Ollama {
                    T::OllamaDefaultContext
                } else if c.vllm.max_model_len_auto {
                    T::VllmModelLenAuto
                } else {
                    T::VllmModelLen
                };
                command_notes
                    .update(|v| v.push(tr(l, note).replace("{0}", &headroom_core::text::format_int(n, l))));
            }
        }
    };
    view! {
        <details class="hr-llama" id="hr-llama">
            <summary>{move || tr(lang.get(), T::LlamaOptions)}</summary>
            <div class="hr-field">
                <label for="hr-command">{move || tr(lang.get(), T::PasteCommand)}</label>
                <textarea id="hr-command" rows="3" spellcheck="false" placeholder="llama-server -m model.Q4_K_M.gguf -c 32768 -np 4 -fa on"
                    prop:value=move || command_text.get()
                    on:input=move |ev| command_text.set(event_target_value(&ev))></textarea>
                <div class="hr-field-row">
                    <button type="button" id="hr-command-read"
                        on:click=move |_| read_command(command_text.get_untracked())>
                        {move || tr(lang.get(), T::ReadCommand)}
                    </button>
                </div>
                <small id="hr-command-error" class="hr-error" role="alert">{move || command_error.get()}</small>
                <ul id="hr-command-notes" class="hr-notes">
                    {move || command_notes.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
                </ul>
            </div>
            <CountField id="hr-ubatch" label=label_of(lang.get_untracked(), T::Ubatch)
                value=Signal::derive(move || s.with(|s| s.llama.ubatch))
                set=Callback::new(move |v| s.update(|s| s.llama.ubatch = v))
                min=1 max=headroom_core::scenario::MAX_LLAMA_BATCH/>
            <CountField id="hr-nbatch" label=label_of(lang.get_untracked(), T::BatchTokens)
                value=Signal::derive(move || s.with(|s| s.llama.batch))
                set=Callback::new(move |v| s.update(|s| s.llama.batch = v))
                min=1 max=headroom_core::scenario::MAX_LLAMA_BATCH/>
            <Choice id="hr-kv-v" label=label_of(lang.get_untracked(), T::KvV) options=v_options
                selected=Signal::derive(move || s.with(|s| s.llama.v_type.map(|k| k.id().to_string()).unwrap_or_default()))
                set=Callback::new(move |v: String| s.update(|s| s.llama.v_type = KvDtype::parse(&v).ok()))/>
            <Toggle id="hr-swa-full" label=label_of(lang.get_untracked(), T::SwaFull)
                checked=flag_value(s, |x| x.llama.swa_full)
                set=flag_set(s, |x, v| x.llama.swa_full = v)/>
            <Toggle id="hr-kv-unified" label=label_of(lang.get_untracked(), T::KvUnified)
                checked=flag_value(s, |x| x.llama.unified)
                set=flag_set(s, |x, v| x.llama.unified = v)/>
            <Choice id="hr-draft" label=label_of(lang.get_untracked(), T::DraftModel) options=draft_options
                selected=Signal::derive(move || s.with(|s| s.llama.draft.clone().unwrap_or_default()))
                set=Callback::new(move |v: String| s.update(|s| s.llama.draft = catalog::model(&v).ok().map(|m| m.id.to_string())))/>
            <Toggle id="hr-cpu-moe" label=label_of(lang.get_untracked(), T::CpuMoeAll)
                checked=Signal::derive(move || s.with(|s| s.llama.cpu_moe == Some(headroom_core::scenario::ALL_LAYERS)))
                set=Callback::new(move |v: bool| s.update(|s| s.llama.cpu_moe = v.then_some(headroom_core::scenario::ALL_LAYERS)))/>
            <CountField id="hr-n-cpu-moe" label=label_of(lang.get_untracked(), T::CpuMoeLayers)
                value=Signal::derive(move || s.with(|s| match s.llama.cpu_moe {
                    Some(headroom_core::scenario::ALL_LAYERS) | None => 0,
                    Some(n) => n,
                }))
                set=Callback::new(move |v| s.update(|s| s.llama.cpu_moe = (v > 0).then_some(v)))
                min=0 max=headroom_core::model::MAX_LAYERS/>
            <TextField id="hr-tensor-split" label=label_of(lang.get_untracked(), T::TensorSplit) placeholder="3,1"
                value=Signal::derive(move || s.with(|s| {
                    headroom_core::scenario::format_tensor_split(&s.llama.tensor_split)
                }))
                apply=Callback::new(move |t: String| {
                    if t.trim().is_empty() {
                        s.update(|s| s.llama.tensor_split.clear());
                        return None;
                    }
                    match headroom_core::scenario::parse_tensor_split(&t) {
                        Err(e) => Some(e.to_string()),
                        Ok(v) => {
                            s.update(|s| s.llama.tensor_split = v);
                            None
                        }
                    }
                })/>
            <TextField id="hr-with-gpus" label=label_of(lang.get_untracked(), T::WithGpus) placeholder="rtx-3090, rtx-3060-12gb"
                value=Signal::derive(move || s.with(|s| s.llama.with_gpus.join(", ")))
                apply=Callback::new(move |t: String| {
                    let ids: Vec<&str> = t.split(',').map(str::trim).filter(|x| !x.is_empty()).collect();
                    let mut cards = Vec::new();
                    for id in ids {
                        match catalog::device(id) {
                            Ok(d) if matches!(d.kind, DeviceKind::Gpu | DeviceKind::Laptop) && d.count <= 1 => {
                                cards.push(d.id.to_string());
                            }
                            Ok(d) => return Some(format!("{}: {}", d.id, tr(lang.get_untracked(), T::NotOneCard))),
                            Err(e) => return Some(e.to_string()),
                        }
                    }
                    if !cards.is_empty() && !matches!(s.with_untracked(|s| s.device.clone()), Some(DeviceChoice::Catalog(_))) {
                        return Some(tr(lang.get_untracked(), T::WithGpusNeedsDevice).to_string());
                    }
                    s.update(|s| {
                        s.gpus = 1 + cards.len() as u64;
                        s.llama.with_gpus = cards;
                    });
                    None
                })/>
            <TextField id="hr-num-batch" label=label_of(lang.get_untracked(), T::NumBatch) placeholder="512"
                value=Signal::derive(move || s.with(|s| s.llama.num_batch.map(|n| n.to_string()).unwrap_or_default()))
                apply=Callback::new(move |t: String| {
                    if t.trim().is_empty() {
                        s.update(|s| s.llama.num_batch = None);
                        return None;
                    }
                    let l = lang.get_untracked();
                    match headroom_core::number::parse_number(&t, l, headroom_core::number::Quantity::Tokens) {
                        Ok(n) if (1..=headroom_core::scenario::MAX_LLAMA_BATCH).contains(&n) => {
                            s.update(|s| s.llama.num_batch = Some(n));
                            None
                        }
                        Ok(_) => Some(format!("1 – {}", headroom_core::text::format_int(headroom_core::scenario::MAX_LLAMA_BATCH, l))),
                        Err(e) => Some(e.message(l)),
                    }
                })/>
        </details>
    }
}

/// vLLM's serving flags that change its budget, folded away: the defaults are the release's and
/// the card's. A count of 0 means the default.
#[component]
fn VllmInputs() -> impl IntoView {
    use headroom_core::vllm::{self, VllmVersion};
    let ui = ui();
    let lang = ui.lang;
    let s = ui.scenario;
    // Whether the model keeps a recurrent state (a hybrid's Mamba or linear-attention layers).
    let hybrid =
        Memo::new(move |_| ui.result.with(|r| r.as_ref().is_ok_and(|(e, _)| e.state_per_sequence.get() > 0)));
    let versions = Signal::derive(move || {
        let mut v: Vec<(String, String)> = ["0.34", "0.30", "0.25", "0.21", "0.11"]
            .iter()
            .map(|v| (v.to_string(), format!("vLLM {v}")))
            .collect();
        // A release from a link or a command shows as itself.
        let asked = s.with(|s| s.vllm.version.id());
        if !v.iter().any(|(id, _)| *id == asked) {
            v.push((asked.clone(), format!("vLLM {asked}")));
        }
        v
    });
    let prefix_options = Signal::derive(move || {
        let l = lang.get();
        vec![
            (String::new(), tr(l, T::VllmPrefixDefault).to_string()),
            ("on".to_string(), tr(l, T::VllmPrefixOn).to_string()),
            ("off".to_string(), tr(l, T::VllmPrefixOff).to_string()),
        ]
    });
    let mamba_options = Signal::derive(move || {
        vec![
            (String::new(), tr(lang.get(), T::DtypeAuto).to_string()),
            ("float32".to_string(), "float32".to_string()),
            ("bfloat16".to_string(), "bfloat16 / float16".to_string()),
        ]
    });
    // A Mamba state dtype's select: "" for auto, else the id of its bytes per value.
    let mamba_dtype = move |get: fn(&Scenario) -> Option<u64>| {
        Signal::derive(move || {
            s.with(|x| get(x).map(|b| vllm::mamba_dtype_id(b).to_string()).unwrap_or_default())
        })
    };
    let spec_options = Signal::derive(move || {
        let l = lang.get();
        let mut v = vec![
            (String::new(), tr(l, T::NoDraft).to_string()),
            ("mtp:1".to_string(), "MTP, 1 token".to_string()),
            ("eagle:3".to_string(), "EAGLE-3, 3 tokens".to_string()),
            ("dspark:5".to_string(), "DSpark, 5 tokens".to_string()),
        ];
        // A drafter from a link or a command shows as itself.
        if let Some(x) = s.with(|s| s.vllm.speculative.as_ref().map(|x| x.id()))
            && !v.iter().any(|(id, _)| *id == x)
        {
            v.push((x.clone(), x));
        }
        v
    });
    view! {
        <details class="hr-vllm" id="hr-vllm">
            <summary>{move || tr(lang.get(), T::VllmOptions)}</summary>
            <Choice id="hr-vllm-version" label=label_of(lang.get_untracked(), T::VllmVersion) options=versions
                selected=Signal::derive(move || s.with(|s| s.vllm.version.id()))
                set=Callback::new(move |v: String| if let Ok(v) = VllmVersion::parse(&v) { s.update(|s| s.vllm.version = v) })/>
            <CountField id="hr-gmu" label=label_of(lang.get_untracked(), T::VllmUtilization)
                value=percent_value(s, |x| x.vllm.utilization)
                set=percent_set(s, |x, v| x.vllm.utilization = v)
                min=0 max=100/>
            <CountField id="hr-max-num-seqs" label=label_of(lang.get_untracked(), T::VllmMaxNumSeqs)
                value=count_value(s, |x| x.vllm.max_num_seqs)
                set=count_set(s, |x, v| x.vllm.max_num_seqs = v)
                min=0 max=vllm::MAX_VLLM_TOKENS/>
            <CountField id="hr-max-batched" label=label_of(lang.get_untracked(), T::VllmMaxBatched)
                value=count_value(s, |x| x.vllm.max_num_batched_tokens)
                set=count_set(s, |x, v| x.vllm.max_num_batched_tokens = v)
                min=0 max=vllm::MAX_VLLM_TOKENS/>
            <CountField id="hr-pp" label=label_of(lang.get_untracked(), T::VllmPipeline)
                value=Signal::derive(move || s.with(|s| s.vllm.pipeline_parallel.unwrap_or(1)))
                set=Callback::new(move |v: u64| s.update(|s| s.vllm.pipeline_parallel = (v > 1).then_some(v)))
                min=1 max=headroom_core::scenario::MAX_GPUS/>
            <CountField id="hr-cgmax" label=label_of(lang.get_untracked(), T::VllmGraphMax)
                value=count_value(s, |x| x.vllm.max_cudagraph_capture_size)
                set=count_set(s, |x, v| x.vllm.max_cudagraph_capture_size = v)
                min=0 max=vllm::MAX_VLLM_TOKENS/>
            <CountField id="hr-dcp" label=label_of(lang.get_untracked(), T::VllmDcp)
                value=Signal::derive(move || s.with(|s| s.vllm.decode_context_parallel.unwrap_or(1)))
                set=Callback::new(move |v: u64| s.update(|s| s.vllm.decode_context_parallel = (v > 1).then_some(v)))
                min=1 max=headroom_core::scenario::MAX_GPUS/>
            <Toggle id="hr-eager" label=label_of(lang.get_untracked(), T::VllmEager)
                checked=flag_value(s, |x| x.vllm.enforce_eager)
                set=flag_set(s, |x, v| x.vllm.enforce_eager = v)/>
            <Toggle id="hr-len-auto" label=label_of(lang.get_untracked(), T::VllmLenAuto)
                checked=flag_value(s, |x| x.vllm.max_model_len_auto)
                set=flag_set(s, |x, v| x.vllm.max_model_len_auto = v)/>
            <Toggle id="hr-no-ext" label=label_of(lang.get_untracked(), T::VllmNoExtensible)
                checked=flag_value(s, |x| x.vllm.extensible_kv_cache == Some(false))
                set=flag_set(s, |x, v| x.vllm.extensible_kv_cache = if v { Some(false) } else { None })/>
            <Toggle id="hr-mm-data" label=label_of(lang.get_untracked(), T::VllmEncoderData)
                checked=flag_value(s, |x| x.vllm.mm_encoder_data)
                set=flag_set(s, |x, v| x.vllm.mm_encoder_data = v)/>
            <Choice id="hr-prefix" label=label_of(lang.get_untracked(), T::VllmPrefix) options=prefix_options
                selected=Signal::derive(move || s.with(|s| match s.vllm.prefix_caching {
                    Some(true) => "on".to_string(),
                    Some(false) => "off".to_string(),
                    None => String::new(),
                }))
                set=Callback::new(move |v: String| s.update(|s| s.vllm.prefix_caching = match v.as_str() {
                    "on" => Some(true),
                    "off" => Some(false),
                    _ => None,
                }))/>
            {move || hybrid.get().then(|| view! {
                <Choice id="hr-mamba-conv" label=label_of(lang.get_untracked(), T::VllmMambaConv) options=mamba_options
                    selected=mamba_dtype(|x| x.vllm.mamba_cache_bytes)
                    set=Callback::new(move |v: String| s.update(|x| x.vllm.mamba_cache_bytes = vllm::mamba_dtype_bytes(&v).ok().flatten()))/>
                <Choice id="hr-mamba-ssm" label=label_of(lang.get_untracked(), T::VllmMambaSsm) options=mamba_options
                    selected=mamba_dtype(|x| x.vllm.mamba_ssm_cache_bytes)
                    set=Callback::new(move |v: String| s.update(|x| x.vllm.mamba_ssm_cache_bytes = vllm::mamba_dtype_bytes(&v).ok().flatten()))/>
            })}
            <Choice id="hr-spec" label=label_of(lang.get_untracked(), T::VllmSpec) options=spec_options
                selected=Signal::derive(move || s.with(|s| s.vllm.speculative.as_ref().map(|x| x.id()).unwrap_or_default()))
                set=Callback::new(move |v: String| s.update(|s| s.vllm.speculative = vllm::Speculative::parse(&v).ok()))/>
        </details>
        <details class="hr-vllm" id="hr-sglang">
            <summary>{move || tr(lang.get(), T::SglangOptions)}</summary>
            <CountField id="hr-mfs" label=label_of(lang.get_untracked(), T::SglangFraction)
                value=percent_value(s, |x| x.sglang.mem_fraction_static)
                set=percent_set(s, |x, v| x.sglang.mem_fraction_static = v)
                min=0 max=100/>
            <CountField id="hr-chunk" label=label_of(lang.get_untracked(), T::SglangChunk)
                value=count_value(s, |x| x.sglang.chunked_prefill_size)
                set=count_set(s, |x, v| x.sglang.chunked_prefill_size = v)
                min=0 max=headroom_core::sglang::MAX_SGLANG/>
            <CountField id="hr-page" label=label_of(lang.get_untracked(), T::SglangPage)
                value=count_value(s, |x| x.sglang.page_size)
                set=count_set(s, |x, v| x.sglang.page_size = v)
                min=0 max=headroom_core::sglang::MAX_SGLANG/>
            <Toggle id="hr-nocg" label=label_of(lang.get_untracked(), T::SglangNoGraph)
                checked=flag_value(s, |x| x.sglang.disable_cuda_graph)
                set=flag_set(s, |x, v| x.sglang.disable_cuda_graph = v)/>
            <CountField id="hr-swa-ratio" label=label_of(lang.get_untracked(), T::SglangSwaRatio)
                value=percent_value(s, |x| x.sglang.swa_full_tokens_ratio)
                set=percent_set(s, |x, v| x.sglang.swa_full_tokens_ratio = v)
                min=0 max=100/>
            <Toggle id="hr-noswa" label=label_of(lang.get_untracked(), T::SglangNoSwa)
                checked=flag_value(s, |x| x.sglang.disable_hybrid_swa_memory)
                set=flag_set(s, |x, v| x.sglang.disable_hybrid_swa_memory = v)/>
            <CountField id="hr-mamba-ratio" label=label_of(lang.get_untracked(), T::SglangMambaRatio)
                value=percent_value(s, |x| x.sglang.mamba_full_memory_ratio)
                set=percent_set(s, |x, v| x.sglang.mamba_full_memory_ratio = v)
                min=0 max=100/>
            <CountField id="hr-mamba-slots" label=label_of(lang.get_untracked(), T::SglangMambaSlots)
                value=count_value(s, |x| x.sglang.max_mamba_cache_size)
                set=count_set(s, |x, v| x.sglang.max_mamba_cache_size = v)
                min=0 max=headroom_core::sglang::MAX_SGLANG/>
        </details>
    }
}

/// A setting kept in ten-thousandths (`None`: its default), shown as a percent (0: the default).
fn percent_value(s: RwSignal<Scenario>, get: fn(&Scenario) -> Option<u32>) -> Signal<u64> {
    Signal::derive(move || s.with(|x| u64::from(get(x).unwrap_or(0)) / 100))
}

/// Writes a percent typed into a ten-thousandths setting (0: back to its default).
fn percent_set(s: RwSignal<Scenario>, put: fn(&mut Scenario, Option<u32>)) -> Callback<u64> {
    Callback::new(move |v: u64| s.update(|x| put(x, (v > 0).then_some((v.min(100) * 100) as u32))))
}

/// A switch's state.
fn flag_value(s: RwSignal<Scenario>, get: fn(&Scenario) -> bool) -> Signal<bool> {
    Signal::derive(move || s.with(get))
}

/// Writes a switch.
fn flag_set(s: RwSignal<Scenario>, put: fn(&mut Scenario, bool)) -> Callback<bool> {
    Callback::new(move |v: bool| s.update(|x| put(x, v)))
}

/// A count setting (`None`: its default), shown as 0 when left to its default.
fn count_value(s: RwSignal<Scenario>, get: fn(&Scenario) -> Option<u64>) -> Signal<u64> {
    Signal::derive(move || s.with(|x| get(x).unwrap_or(0)))
}

/// Writes a typed count into a setting (0: back to its default).
fn count_set(s: RwSignal<Scenario>, put: fn(&mut Scenario, Option<u64>)) -> Callback<u64> {
    Callback::new(move |v: u64| s.update(|x| put(x, (v > 0).then_some(v))))
}

/// LoRA targets: all linear layers, or a chosen set of module kinds.
#[component]
fn LoraTargetsField() -> impl IntoView {
    let ui = ui();
    let s = ui.scenario;
    let lang = ui.lang;
    let kinds = [
        LoraTarget::Q,
        LoraTarget::K,
        LoraTarget::V,
        LoraTarget::O,
        LoraTarget::Gate,
        LoraTarget::Up,
        LoraTarget::Down,
        LoraTarget::Head,
        LoraTarget::Embed,
    ];
    // all-linear: the blocks' linears, never the head or the embeddings (peft's meaning).
    let linear = |k: &LoraTarget| !matches!(k, LoraTarget::Head | LoraTarget::Embed);
    let is_on = move |k: LoraTarget| {
        s.with(|s| match &s.lora_targets {
            LoraTargets::AllLinear => linear(&k),
            LoraTargets::Some(list) => list.contains(&k),
        })
    };
    let flip = move |k: LoraTarget, on: bool| {
        s.update(|s| {
            let mut list: Vec<LoraTarget> = match &s.lora_targets {
                LoraTargets::AllLinear => kinds.iter().copied().filter(linear).collect(),
                LoraTargets::Some(l) => l.clone(),
            };
            list.retain(|x| *x != k);
            if on {
                list.push(k);
            }
            headroom_core::sort::sort(&mut list);
            if list.is_empty() {
                return;
            }
            let whole = kinds.iter().filter(|x| linear(x)).all(|x| list.contains(x));
            s.lora_targets = if whole && list.iter().all(linear) {
                LoraTargets::AllLinear
            } else {
                LoraTargets::Some(list)
            };
        })
    };
    view! {
        <fieldset class="hr-field hr-targets">
            <legend>{move || tr(lang.get(), T::LoraTargets)}</legend>
            {kinds.iter().map(|k| {
                let k = *k;
                let id = format!("hr-target-{}", k.id());
                view! {
                    <span class="hr-check">
                        <input type="checkbox" id=id.clone() checked=untrack(|| is_on(k)) prop:checked=move || is_on(k)
                            on:change=move |ev| flip(k, event_target_checked(&ev))/>
                        <label for=id>{k.id()}</label>
                    </span>
                }
            }).collect_view()}
        </fieldset>
    }
}

const KINDS: [(DeviceKind, T); 6] = [
    (DeviceKind::Gpu, T::GpusK),
    (DeviceKind::Apple, T::AppleK),
    (DeviceKind::Apu, T::ApusK),
    (DeviceKind::Laptop, T::LaptopsK),
    (DeviceKind::Cpu, T::CpusK),
    (DeviceKind::Cloud, T::CloudK),
];

/// The device (catalog, or "my machine"), and how many.
#[component]
pub fn HardwareInputs() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let s = ui.scenario;
    // A memo: the device list's hundreds of options follow the chosen device, not every change
    // of the scenario.
    let selected = Memo::new(move |_| {
        s.with(|s| match &s.device {
            None => String::new(),
            Some(DeviceChoice::Catalog(id)) => id.clone(),
            Some(DeviceChoice::Mine(_)) => "mine".into(),
        })
    });
    let mine = move || selected.with(|d| d == "mine");
    // A memo: the GPU count field is rebuilt when the mode changes, not on every change.
    let training = Memo::new(move |_| s.with(|s| s.mode.is_training()));
    // The RAM beside a desktop card or a laptop is the user's to give (cloud instances, Macs
    // and CPU machines have their own).
    let catalog_kind = Memo::new(move |_| {
        s.with(|s| match &s.device {
            Some(DeviceChoice::Catalog(id)) => catalog::device(id).ok().map(|d| d.kind),
            _ => None,
        })
    });
    let host_ram_field =
        Memo::new(move |_| matches!(catalog_kind.get(), Some(DeviceKind::Gpu | DeviceKind::Laptop)));
    // The share of a unified memory the GPU may use: a Mac's (macOS) or an APU's (its OS), for
    // the catalog's machines of one memory.
    let gpu_share_field =
        Memo::new(move |_| matches!(catalog_kind.get(), Some(DeviceKind::Apple | DeviceKind::Apu)));
    let set_device = move |v: String| {
        s.update(|s| {
            s.device = match v.as_str() {
                "" => None,
                "mine" => Some(DeviceChoice::Mine(MyMachine {
                    vram_gib: 24.0,
                    ram_gib: 64.0,
                    unified: false,
                    bandwidth_gbs: 0.0,
                    tflops: 0.0,
                })),
                id => catalog::device(id).ok().map(|d| DeviceChoice::Catalog(d.id.into())),
            };
            // More cards go beside a catalog card only.
            if !matches!(s.device, Some(DeviceChoice::Catalog(_))) && !s.llama.with_gpus.is_empty() {
                s.llama.with_gpus.clear();
                s.gpus = 1;
            }
        })
    };
    let machine = move || {
        s.with(|s| match &s.device {
            Some(DeviceChoice::Mine(m)) => m.clone(),
            _ => MyMachine::EMPTY,
        })
    };
    let edit = move |f: fn(&mut MyMachine, f64), v: f64| {
        s.update(|s| {
            if let Some(DeviceChoice::Mine(m)) = &mut s.device {
                f(m, v);
            }
        })
    };
    let reserve_options = Signal::derive(move || {
        let l = lang.get();
        let mut v = vec![
            ("none".to_string(), tr(l, T::ReserveNone).to_string()),
            ("auto".to_string(), tr(l, T::ReserveAuto).to_string()),
        ];
        let mut sizes = vec![512u64, 1024, 2048, 4096, 8192];
        // A size from a link or the CLI shows as itself.
        if let headroom_core::hardware::Reserve::Mib(m) = s.with(|s| s.reserve)
            && !sizes.contains(&m)
        {
            sizes.push(m);
            headroom_core::sort::sort(&mut sizes);
        }
        for mib in sizes {
            let gib =
                headroom_core::text::format_num(mib as f64 / 1024.0, if mib % 1024 == 0 { 0 } else { 1 }, l);
            v.push((mib.to_string(), format!("{gib}{}", tr(l, T::GibUnit))));
        }
        v
    });
    // Finding a device by its name, an alias or its memory ("4090", "24 GB", "m3 max"): one match
    // is chosen at once, several are offered (the first twelve), none is said.
    let search = RwSignal::new(String::new());
    // What the browser tells of this machine (`None` inside: still asking).
    let detect = RwSignal::new(None::<Option<crate::detect::Detected>>);
    let matches = Memo::new(move |_| {
        search.with(|q| catalog::search_devices(q).into_iter().map(|d| (d.id, d.name)).collect::<Vec<_>>())
    });
    let on_search = move |ev| {
        let text = event_target_value(&ev);
        search.set(text);
        if let [(id, _)] = matches.get_untracked().as_slice() {
            set_device((*id).to_string());
        }
    };
    let found = move || {
        let l = lang.get();
        let q = search.get();
        if q.trim().is_empty() {
            return None;
        }
        let m = matches.get();
        Some(match m.len() {
            0 => view! { <p class="hr-hint" id="hr-device-found">{tr(l, T::NoDeviceFound)}</p> }.into_any(),
            1 => view! { <p class="hr-hint" id="hr-device-found">{m[0].1}</p> }.into_any(),
            n => view! {
                <div class="hr-device-found" id="hr-device-found">
                    <p class="hr-hint">{tr(l, T::DevicesMatching).replace("{0}", &n.to_string())}</p>
                    <div class="hr-chips">
                        {m.into_iter().take(12).map(|(id, name)| view! {
                            <button type="button" class="hr-chip" data-device=id
                                on:click=move |_| { set_device(id.to_string()); search.set(String::new()); }>{name}</button>
                        }).collect_view()}
                    </div>
                </div>
            }.into_any(),
        })
    };
    view! {
        <fieldset class="hr-card">
            <legend>{move || tr(lang.get(), T::Hardware)}</legend>
            <div class="hr-field">
                <label for="hr-device-search">{move || tr(lang.get(), T::FindDevice)}</label>
                <input id="hr-device-search" type="search" autocomplete="off" spellcheck="false"
                    placeholder="4090, 24 GB, M3 Max…" prop:value=move || search.get() on:input=on_search/>
                {found}
                <button type="button" class="hr-chip" id="hr-detect" on:click=move |_| {
                    detect.set(Some(None));
                    leptos::task::spawn_local(async move { detect.set(Some(Some(crate::detect::detect().await))); });
                }>{move || tr(lang.get(), T::DetectDevice)}</button>
                {move || detect.get().map(|d| {
                    let l = lang.get();
                    match d {
                        None => view! { <p class="hr-hint" id="hr-detected">"…"</p> }.into_any(),
                        Some(found) => {
                            let chips = found.candidates.clone();
                            view! {
                                <div class="hr-detected" id="hr-detected" role="status">
                                    <p class="hr-hint">{found.describe(l)}</p>
                                    <div class="hr-chips">
                                        {chips.into_iter().take(8).map(|(id, name)| view! {
                                            <button type="button" class="hr-chip" data-device=id
                                                on:click=move |_| set_device(id.to_string())>{name}</button>
                                        }).collect_view()}
                                    </div>
                                </div>
                            }.into_any()
                        }
                    }
                })}
            </div>
            <div class="hr-field">
                <label for="hr-device">{move || tr(lang.get(), T::Device)}</label>
                <select id="hr-device" on:change=move |ev| set_device(event_target_value(&ev))>
                    <option value="" selected=move || selected.with(String::is_empty)>{move || tr(lang.get(), T::NoDevice)}</option>
                    <option value="mine" selected=move || selected.with(|d| d == "mine")>{move || tr(lang.get(), T::MyMachine)}</option>
                    {KINDS.iter().map(|(kind, label)| {
                        let kind = *kind;
                        let label = *label;
                        view! {
                            <optgroup label=move || tr(lang.get(), label)>
                                {catalog::devices_of(kind).map(|d| {
                                    let id = d.id;
                                    view! { <option value=id selected=move || selected.with(|d| d == id)>{d.name}</option> }
                                }).collect_view()}
                            </optgroup>
                        }
                    }).collect_view()}
                </select>
            </div>
            {move || mine().then(|| view! {
                <div class="hr-mine">
                    <NumberF id="hr-my-vram" label=T::Vram value=Signal::derive(move || machine().vram_gib)
                        set=Callback::new(move |v| edit(|m, v| m.vram_gib = v, v))/>
                    <NumberF id="hr-my-ram" label=T::Ram value=Signal::derive(move || machine().ram_gib)
                        set=Callback::new(move |v| edit(|m, v| m.ram_gib = v, v))/>
                    <Toggle id="hr-my-mac" label=label_of(lang.get_untracked(), T::IsMac)
                        checked=Signal::derive(move || machine().unified)
                        set=Callback::new(move |v: bool| edit(|m, v| m.unified = v > 0.5, if v { 1.0 } else { 0.0 }))/>
                </div>
            })}
            {move || host_ram_field.get().then(|| view! {
                <TextField id="hr-host-ram" label=label_of(lang.get_untracked(), T::HostRam)
                    placeholder="32"
                    value=Signal::derive(move || s.with(|s| s.host_ram_gib.map(format_gib).unwrap_or_default()))
                    apply=Callback::new(move |t: String| {
                        let l = lang.get_untracked();
                        match read_gib(&t, l) {
                            Ok(g) => { s.update(|s| s.host_ram_gib = g); None }
                            Err(e) => Some(e),
                        }
                    })/>
                <p class="hr-hint" id="hr-host-ram-hint">{move || tr(lang.get(), T::HostRamHint)}</p>
            })}
            {move || gpu_share_field.get().then(|| view! {
                <TextField id="hr-gpu-share" label=label_of(lang.get_untracked(), T::GpuShare)
                    placeholder=""
                    value=Signal::derive(move || {
                        let l = lang.get();
                        s.with(|s| s.mac_gpu_fraction.map(|f| format_percent(f * 100.0, l)).unwrap_or_default())
                    })
                    apply=Callback::new(move |t: String| {
                        let l = lang.get_untracked();
                        match read_percent(&t, l) {
                            Ok(f) => { s.update(|s| s.mac_gpu_fraction = f); None }
                            Err(e) => Some(e),
                        }
                    })/>
                <p class="hr-hint" id="hr-gpu-share-hint">
                    {move || {
                        let l = lang.get();
                        tr(l, T::GpuShareDefault).replace("{0}", &s.with(|s| default_share_percent(s, l)))
                    }}
                    " "
                    {move || tr(lang.get(), T::GpuShareHint)}
                </p>
            })}
            {move || (!training.get()).then(|| view! {
                <CountField id="hr-gpus" label=label_of(lang.get_untracked(), T::Gpus)
                    value=Signal::derive(move || s.with(|s| s.gpus))
                    set=Callback::new(move |v| s.update(|s| s.gpus = v))
                    min=1 max=4096/>
            })}
            <Choice id="hr-reserve" help=T::HelpReserve label=label_of(lang.get_untracked(), T::Reserve) options=reserve_options
                selected=Signal::derive(move || s.with(|s| s.reserve.id()))
                set=Callback::new(move |v: String| {
                    let r = match v.as_str() {
                        "auto" => headroom_core::hardware::Reserve::Auto,
                        "none" => headroom_core::hardware::Reserve::None,
                        m => m.parse::<u64>().map_or(headroom_core::hardware::Reserve::None, headroom_core::hardware::Reserve::Mib),
                    };
                    s.update(|s| s.reserve = r);
                })/>
        </fieldset>
    }
}

/// A decimal field (GiB, prices).
#[component]
fn NumberF(
    /// The input's id.
    id: &'static str,
    /// The label.
    label: T,
    /// The value.
    #[prop(into)]
    value: Signal<f64>,
    /// Called with every valid number.
    set: Callback<f64>,
) -> impl IntoView {
    let lang = ui().lang;
    let text = RwSignal::new(value.get_untracked().to_string());
    let bad = RwSignal::new(false);
    view! {
        <div class="hr-field">
            <label for=id>{move || tr(lang.get(), label)}</label>
            <input type="text" inputmode="decimal" id=id class="hr-number"
                value=text.get_untracked()
                prop:value=move || text.get()
                aria-invalid=move || bad.get().to_string()
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    text.set(t.clone());
                    match t.trim().replace(',', ".").parse::<f64>() {
                        Ok(v) if v.is_finite() && v >= 0.0 => { bad.set(false); set.run(v) }
                        _ => bad.set(true),
                    }
                }/>
        </div>
    }
}

/// Electricity price and hours of use.
#[component]
pub fn CostInputs() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let s = ui.scenario;
    view! {
        <details class="hr-card hr-costs">
            <summary>{move || tr(lang.get(), T::Costs)}</summary>
            <NumberF id="hr-kwh" label=T::KwhPrice value=Signal::derive(move || s.with(|s| s.costs.usd_per_kwh))
                set=Callback::new(move |v: f64| if v <= 10.0 { s.update(|s| s.costs.usd_per_kwh = v) })/>
            <NumberF id="hr-hours" label=T::HoursPerDay value=Signal::derive(move || s.with(|s| s.costs.hours_per_day))
                set=Callback::new(move |v: f64| if v <= 24.0 { s.update(|s| s.costs.hours_per_day = v) })/>
        </details>
    }
}

/// Common questions as starting points (`scenario::Goal`): one click writes the goal's knobs
/// into the scenario, every one of them then shown and changeable in the inputs.
#[component]
pub fn Goals() -> impl IntoView {
    use headroom_core::scenario::Goal;
    let ui = ui();
    let lang = ui.lang;
    view! {
        <nav class="hr-goals" aria-label=move || tr(lang.get(), T::StartFrom)>
            <span class="hr-goals-label">{move || tr(lang.get(), T::StartFrom)}</span>
            {Goal::ALL.iter().map(|g| {
                let g = *g;
                let (label, help) = match g {
                    Goal::Chat => (T::GoalChat, T::GoalChatHelp),
                    Goal::Serve => (T::GoalServe, T::GoalServeHelp),
                    Goal::Lora => (T::GoalLora, T::GoalLoraHelp),
                    Goal::Qlora => (T::GoalQlora, T::GoalQloraHelp),
                    Goal::FullNode => (T::GoalFullNode, T::GoalFullNodeHelp),
                };
                view! {
                    <button type="button" class="hr-chip" id=format!("hr-goal-{}", g.id())
                        title=move || tr(lang.get(), help)
                        on:click=move |_| ui.scenario.update(|s| g.apply(s))>
                        {move || tr(lang.get(), label)}
                    </button>
                }
            }).collect_view()}
        </nav>
    }
}

/// GiB as the field shows them: whole numbers bare, others with their decimals.
fn format_gib(g: f64) -> String {
    if g.fract() == 0.0 { format!("{}", g as u64) } else { format!("{g}") }
}

/// A share written as a percentage, one decimal at most, with the language's decimal mark.
fn format_percent(p: f64, l: Lang) -> String {
    let r = headroom_core::ops::round(p * 10.0) / 10.0;
    if r.fract() == 0.0 { format!("{}", r as u64) } else { headroom_core::text::format_num(r, 1, l) }
}

/// The default GPU share of the scenario's catalog Mac or APU, as the field's hint shows it.
fn default_share_percent(s: &Scenario, l: Lang) -> String {
    let Some(DeviceChoice::Catalog(id)) = &s.device else { return String::new() };
    catalog::device(id)
        .ok()
        .and_then(headroom_core::hardware::default_gpu_share)
        .map_or(String::new(), |f| format_percent(f * 100.0, l))
}

/// A GPU share typed in percent (`75`, `75 %`, `87,5` in French); empty means the OS's default.
fn read_percent(text: &str, l: Lang) -> Result<Option<f64>, String> {
    let t = text.trim().trim_end_matches('%').trim();
    if t.is_empty() {
        return Ok(None);
    }
    let normal = if l == Lang::Fr { t.replace(',', ".") } else { t.to_string() };
    let bad = || tr(l, T::GpuShareBad).to_string();
    if l == Lang::En && t.contains(',') {
        return Err(bad());
    }
    match normal.parse::<f64>() {
        Ok(p) if (10.0..=100.0).contains(&p) => Ok(Some(p / 100.0)),
        _ => Err(bad()),
    }
}

/// System RAM typed in GiB (`32`, `32 GiB`, `64 Go`); empty means not known.
fn read_gib(text: &str, l: Lang) -> Result<Option<f64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let lower = t.to_ascii_lowercase();
    let number = ["gib", "gb", "go", "g"].iter().find_map(|u| lower.strip_suffix(u)).unwrap_or(&lower).trim();
    if number.chars().any(|c| c.is_ascii_alphabetic()) {
        return Err(tr(l, T::HostRamBad).to_string());
    }
    match headroom_core::number::parse_number(number, l, headroom_core::number::Quantity::Tokens) {
        Ok(n) if (1..=65_536).contains(&n) => Ok(Some(n as f64)),
        Ok(_) => Err(tr(l, T::HostRamBad).to_string()),
        Err(e) => Err(e.message(l)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_share_is_read_in_percent_by_the_page_language() {
        assert_eq!(read_percent("", Lang::En), Ok(None));
        assert_eq!(read_percent("75", Lang::En), Ok(Some(0.75)));
        assert_eq!(read_percent("87.5 %", Lang::En), Ok(Some(0.875)));
        assert_eq!(read_percent("87,5", Lang::Fr), Ok(Some(0.875)));
        assert!(read_percent("87,5", Lang::En).is_err(), "a comma in English reads two ways");
        assert!(read_percent("5", Lang::En).is_err() && read_percent("120", Lang::En).is_err());
        assert!(read_percent("lots", Lang::Fr).is_err());
        assert_eq!(format_percent(88.359375, Lang::En), "88.4");
        assert_eq!(format_percent(88.359375, Lang::Fr), "88,4");
        assert_eq!(format_percent(50.0, Lang::Fr), "50");
    }

    #[test]
    fn system_ram_is_read_in_gib_or_left_unknown() {
        assert_eq!(read_gib("", Lang::En), Ok(None));
        assert_eq!(read_gib("  ", Lang::Fr), Ok(None));
        assert_eq!(read_gib("32", Lang::En), Ok(Some(32.0)));
        assert_eq!(read_gib("64 GiB", Lang::En), Ok(Some(64.0)));
        assert_eq!(read_gib("128go", Lang::Fr), Ok(Some(128.0)));
        assert_eq!(read_gib("1 024", Lang::Fr), Ok(Some(1024.0)));
        for bad in ["0", "32k", "lots", "70000", "-4"] {
            assert!(read_gib(bad, Lang::En).is_err(), "{bad}");
        }
        assert_eq!(format_gib(32.0), "32");
        assert_eq!(format_gib(12.5), "12.5");
    }
}
