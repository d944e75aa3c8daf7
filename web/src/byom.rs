//! "Bring your own model": the Hugging Face and local-file panels of the model card. They read
//! headers through [`crate::import`] and put the model into the scenario; the core does the rest.

use headroom_core::import::hub::{self, HubRef};
use headroom_core::scenario::ModelSource;
use headroom_core::text::{Lang, format_int};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{AbortController, File};

use crate::i18n::{T, tr};
use crate::import::{self, ImportError, Imported, Progress};
use crate::state::{Ui, ui};

/// The state of a read, shared by both panels.
#[derive(Clone, Copy)]
pub struct Reader {
    /// A read is running.
    pub busy: RwSignal<bool>,
    /// Its progress.
    pub progress: RwSignal<Progress>,
    /// The last error.
    pub error: RwSignal<Option<String>>,
    /// What the last successful read found.
    pub done: RwSignal<Option<String>>,
    /// Notices of the last read.
    pub notices: RwSignal<Vec<String>>,
    /// The GGUF files of the last repository, for a picker.
    pub choices: RwSignal<Vec<String>>,
    /// Cancels the running read.
    abort: StoredValue<Option<AbortController>, LocalStorage>,
    /// Counts reads, so a late answer of a replaced read is dropped.
    generation: StoredValue<u64>,
    /// The page state (held here: contexts are not reachable from async tasks).
    ui: Ui,
}

impl Reader {
    /// Fresh state.
    pub fn new(ui: Ui) -> Reader {
        Reader {
            ui,
            busy: RwSignal::new(false),
            progress: RwSignal::new(Progress::default()),
            error: RwSignal::new(None),
            done: RwSignal::new(None),
            notices: RwSignal::new(Vec::new()),
            choices: RwSignal::new(Vec::new()),
            abort: StoredValue::new_local(None),
            generation: StoredValue::new(0),
        }
    }

    /// Stops the running read, if any.
    pub fn cancel(&self) {
        if let Some(c) = self.abort.try_get_value().flatten() {
            c.abort();
        }
    }

    /// Starts a read: cancels the previous one and returns its abort signal and generation.
    fn start(&self) -> Option<(web_sys::AbortSignal, u64)> {
        self.cancel();
        let c = AbortController::new().ok()?;
        let signal = c.signal();
        self.abort.set_value(Some(c));
        let g = self.generation.get_value() + 1;
        self.generation.set_value(g);
        self.busy.set(true);
        self.error.set(None);
        self.done.set(None);
        self.progress.set(Progress::default());
        Some((signal, g))
    }

    /// Ends a read: `true` when it is still the current one (its answer may be used).
    fn finish(&self, g: u64) -> bool {
        if self.generation.try_get_value() != Some(g) {
            return false;
        }
        self.abort.set_value(None);
        self.busy.set(false);
        true
    }

    fn fail(&self, e: &ImportError, lang: Lang) {
        self.error.set(Some(e.message(lang)));
    }
}

fn progress_text(p: &Progress, lang: Lang) -> String {
    let mut s = String::new();
    if !p.what.is_empty() {
        s.push_str(&p.what);
    }
    if p.files.1 > 1 {
        s.push_str(&format!(" · {}/{}", p.files.0 + 1, p.files.1));
    }
    if p.bytes > 0 {
        s.push_str(&format!(" · {} {}", format_int(p.bytes.div_ceil(1024), lang), tr(lang, T::KbOfHeaders)));
    }
    s
}

/// Puts a read model into the scenario.
fn apply(read: Imported, hf: Option<HubRef>, reader: Reader) {
    let ui = reader.ui;
    reader.done.set(Some(format!("{} — {}", read.model.name, read.read)));
    reader.notices.set(read.notices);
    reader.choices.set(read.choices);
    ui.hf.set(hf);
    ui.scenario.update(|s| {
        s.model = ModelSource::Custom(Box::new(read.model));
        // The file's own format is the point of reading it.
        s.weights = None;
    });
}

/// Reads a Hugging Face reference (from the input or the link).
pub fn read_hub(reader: Reader, r: HubRef, token: Option<String>) {
    let ui = reader.ui;
    let lang = ui.lang.get_untracked();
    let Some((signal, g)) = reader.start() else { return };
    let base = ui.hub_base();
    // A token goes only to the public Hub or to this machine, whatever the link says.
    let token =
        token.filter(|t| !t.trim().is_empty() && hub::may_send_token(&base)).map(|t| t.trim().to_string());
    leptos::task::spawn_local(async move {
        let ctx = import::Hub { base: &base, token: token.as_deref(), signal: &signal, repo: &r.repo };
        let result = import::from_hub(&ctx, &r, |p| {
            if reader.generation.try_get_value() == Some(g) {
                reader.progress.set(p);
            }
        })
        .await;
        drop(token);
        if !reader.finish(g) {
            return;
        }
        match result {
            Ok(read) => {
                let mut r = r;
                if r.file.is_none() && r.quant.is_none() {
                    r.file = read.file.clone();
                }
                apply(read, Some(r), reader);
            }
            Err(e) => reader.fail(&e, lang),
        }
    });
}

/// Reads local files.
pub fn read_files(reader: Reader, files: Vec<File>) {
    let lang = reader.ui.lang.get_untracked();
    let Some((_signal, g)) = reader.start() else { return };
    leptos::task::spawn_local(async move {
        let result = import::from_files(files, |p| {
            if reader.generation.try_get_value() == Some(g) {
                reader.progress.set(p);
            }
        })
        .await;
        if !reader.finish(g) {
            return;
        }
        match result {
            Ok(read) => apply(read, None, reader),
            Err(e) => reader.fail(&e, lang),
        }
    });
}

/// Progress, result, notices and errors of a read, with its Cancel button.
#[component]
fn ReadStatus(reader: Reader, prefix: &'static str) -> impl IntoView {
    let lang = ui().lang;
    view! {
        <div class="hr-read-status">
            <Show when=move || reader.busy.get()>
                <div class="hr-field-row">
                    <progress id=format!("{prefix}-progress") aria-label=move || tr(lang.get(), T::Reading)></progress>
                    <button type="button" id=format!("{prefix}-cancel") on:click=move |_| reader.cancel()>
                        {move || tr(lang.get(), T::Cancel)}
                    </button>
                </div>
            </Show>
            <small id=format!("{prefix}-status") role="status" class="hr-hint">
                {move || if reader.busy.get() {
                    format!("{} {}", tr(lang.get(), T::Reading), progress_text(&reader.progress.get(), lang.get()))
                } else {
                    reader.done.get().map(|d| format!("{} {d}", tr(lang.get(), T::ReadDone))).unwrap_or_default()
                }}
            </small>
            <ul class="hr-read-notices">
                {move || reader.notices.get().into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}
            </ul>
            <small id=format!("{prefix}-error") class="hr-error" role="alert">{move || reader.error.get()}</small>
        </div>
    }
}

/// The Hugging Face panel: id or address, optional token, read and cancel.
#[component]
pub fn HubPanel(reader: Reader) -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let text =
        RwSignal::new(ui.hf.with_untracked(|h| h.as_ref().map(HubRef::to_link_value).unwrap_or_default()));
    // The token lives in this component's memory only: never in the link, storage or logs.
    let token = RwSignal::new(String::new());
    let base = ui.hub_base();
    let host = base.split("://").nth(1).unwrap_or(&base).split('/').next().unwrap_or("").to_string();
    let token_allowed = hub::may_send_token(&base);
    let go = move || match hub::parse_ref(&text.get_untracked()) {
        Ok(r) => read_hub(reader, r, Some(token.get_untracked())),
        Err(e) => reader.error.set(Some(e.to_string())),
    };
    let pick = move |file: String| {
        if let Some(mut r) = ui.hf.get_untracked() {
            r.file = Some(file);
            r.quant = None;
            text.set(r.to_link_value());
            read_hub(reader, r, Some(token.get_untracked()));
        }
    };
    view! {
        <form class="hr-field" on:submit=move |ev| { ev.prevent_default(); go(); }>
            <label for="hr-hf">{move || tr(lang.get(), T::HubModel)}</label>
            <input id="hr-hf" type="text" autocomplete="off" spellcheck="false"
                placeholder="Qwen/Qwen2.5-7B-Instruct"
                aria-describedby="hr-hf-hint"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))/>
            <small id="hr-hf-hint" class="hr-hint">{move || tr(lang.get(), T::HubHint)}</small>
            <details class="hr-token">
                <summary>{move || tr(lang.get(), T::AccessToken)}</summary>
                <label for="hr-hf-token" class="hr-visually-hidden">{move || tr(lang.get(), T::AccessToken)}</label>
                <input id="hr-hf-token" type="password" autocomplete="off" spellcheck="false"
                    placeholder="hf_…" disabled=!token_allowed
                    prop:value=move || token.get()
                    on:input=move |ev| token.set(event_target_value(&ev))/>
                <small class="hr-hint">
                    {move || if token_allowed {
                        format!("{} {host}.", tr(lang.get(), T::TokenKept))
                    } else {
                        format!("{} {host}.", tr(lang.get(), T::TokenRefused))
                    }}
                </small>
            </details>
            <div class="hr-field-row">
                <button type="submit" id="hr-hf-read" disabled=move || reader.busy.get()>
                    {move || tr(lang.get(), T::ReadModel)}
                </button>
            </div>
            <Show when=move || { reader.choices.with(|c| c.len() > 1) }>
                <label for="hr-hf-file">{move || tr(lang.get(), T::GgufFile)}</label>
                <select id="hr-hf-file" on:change=move |ev| pick(event_target_value(&ev))>
                    {move || {
                        let current = ui.hf.with(|h| h.as_ref().and_then(|r| r.file.clone()));
                        reader.choices.get().into_iter().map(|c| {
                            let selected = current.as_deref() == Some(c.as_str());
                            view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
                        }).collect_view()
                    }}
                </select>
            </Show>
            <ReadStatus reader=reader prefix="hr-hf"/>
        </form>
    }
}

fn files_of(list: Option<web_sys::FileList>) -> Vec<File> {
    let Some(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// The local-file panel: drop or choose GGUF files (all parts of a split one), or a config.json
/// with its safetensors files.
#[component]
pub fn FilePanel(reader: Reader) -> impl IntoView {
    let lang = ui().lang;
    let over = RwSignal::new(false);
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        over.set(false);
        let files = files_of(ev.data_transfer().and_then(|d| d.files()));
        if !files.is_empty() {
            read_files(reader, files);
        }
    };
    let on_pick = move |ev: leptos::ev::Event| {
        let input: Option<web_sys::HtmlInputElement> = ev.target().and_then(|t| t.dyn_into().ok());
        let files = files_of(input.as_ref().and_then(|i| i.files()));
        if !files.is_empty() {
            read_files(reader, files);
        }
    };
    view! {
        <div class="hr-field">
            <div id="hr-drop" class="hr-drop" class:hr-drop-over=move || over.get()
                on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); over.set(true); }
                on:dragleave=move |_| over.set(false)
                on:drop=on_drop>
                <p>{move || tr(lang.get(), T::DropFiles)}</p>
                <label class="hr-file">
                    <span>{move || tr(lang.get(), T::ChooseFiles)}</span>
                    <input type="file" id="hr-gguf-file" multiple accept=".gguf,.safetensors,.json" on:change=on_pick/>
                </label>
                <small class="hr-hint">{move || tr(lang.get(), T::FilesStayLocal)}</small>
            </div>
            <ReadStatus reader=reader prefix="hr-file"/>
        </div>
    }
}
