//! Component tests in headless Chromium (`wasm-bindgen-test`): the App mounted into a fresh
//! element, driven through its DOM.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use leptos::prelude::mount_to;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Sets the page's query (all tests share one page) and returns a fresh element to mount into.
fn fresh_root(query: &str) -> web_sys::HtmlElement {
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}")))
        .unwrap();
    let doc = window.document().unwrap();
    let el: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&el).unwrap();
    el
}

fn bytes(root: &web_sys::HtmlElement, sel: &str) -> Option<u64> {
    root.query_selector(sel).unwrap()?.get_attribute("data-bytes")?.parse().ok()
}

fn search() -> String {
    web_sys::window().unwrap().location().search().unwrap()
}

/// Waits `ms` milliseconds (the link is written once changes pause).
async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
}

#[wasm_bindgen_test]
async fn mounts_and_shows_weights_from_the_link() {
    let root = fresh_root("?v=1&params=7B&weights=fp16");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    assert_eq!(bytes(&root, "#hr-weights-bytes"), Some(14_000_000_000));
}

#[wasm_bindgen_test]
async fn typing_a_count_updates_the_figure_and_the_link() {
    let root = fresh_root("?v=1&params=7B");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let input: web_sys::HtmlInputElement =
        root.query_selector("#hr-params").unwrap().unwrap().unchecked_into();
    input.set_value("500M");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    leptos::task::tick().await;
    // Default precision for a bare count is bf16: 2 bytes per parameter.
    assert_eq!(bytes(&root, "#hr-weights-bytes"), Some(1_000_000_000));
    // The link follows once changes pause.
    assert!(!search().contains("params=500M"), "written at once: {}", search());
    sleep(300).await;
    assert!(search().contains("params=500M"), "{}", search());
}

/// Checkpointing one layer in k: the field appears under full checkpointing, a larger k keeps more
/// activations, and the link carries it.
#[wasm_bindgen_test]
async fn checkpointing_every_kth_layer_from_the_page() {
    let root = fresh_root("?v=1&mode=full&ckpt=full");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let before = bytes(&root, "#hr-total-bytes").unwrap();
    let input: web_sys::HtmlInputElement =
        root.query_selector("#hr-ckpt-every").unwrap().unwrap().unchecked_into();
    input.set_value("2");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    leptos::task::tick().await;
    let after = bytes(&root, "#hr-total-bytes").unwrap();
    assert!(after > before, "{before} → {after}");
    sleep(300).await;
    assert!(search().contains("ckev=2"), "{}", search());
}

#[wasm_bindgen_test]
async fn the_default_view_is_useful() {
    let root = fresh_root("");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    // Llama 3.1 8B in bf16: 16,060,522,496 bytes of weights; 4096 tokens of fp16 KV.
    assert_eq!(bytes(&root, "#hr-weights-bytes"), Some(16_060_522_496));
    assert_eq!(bytes(&root, "#hr-kv-cache-bytes"), Some(536_870_912));
    assert!(root.query_selector(".hr-seed .hr-chosen").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn switching_mode_and_weights_recomputes() {
    let root = fresh_root("?v=1&model=llama-2-7b");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let lora: web_sys::HtmlElement = root.query_selector("#hr-mode-lora").unwrap().unwrap().unchecked_into();
    lora.click();
    leptos::task::tick().await;
    sleep(300).await;
    assert!(search().contains("mode=lora"), "{}", search());
    assert!(bytes(&root, "#hr-adapters-bytes").is_some_and(|b| b > 0));
    let select: web_sys::HtmlSelectElement =
        root.query_selector("#hr-weights").unwrap().unwrap().unchecked_into();
    select.set_value("nf4");
    select.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    leptos::task::tick().await;
    sleep(300).await;
    assert!(search().contains("weights=nf4"), "{}", search());
}

#[wasm_bindgen_test]
async fn a_bad_link_shows_a_notice_not_a_blank_page() {
    let root = fresh_root("?params=banana&weights=fp12&ctx=0");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let notice = root.query_selector(".hr-notice").unwrap().unwrap();
    let text = notice.text_content().unwrap();
    assert!(text.contains("params") && text.contains("weights") && text.contains("ctx"), "{text}");
    assert!(root.query_selector("#hr-weights-bytes").unwrap().is_some());
}

#[wasm_bindgen_test]
async fn the_embed_view_is_compact() {
    let root = fresh_root("?v=1&model=qwen3-8b&device=rtx-4090&embed=1");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    assert!(root.query_selector(".hr-embed").unwrap().is_some());
    assert!(root.query_selector(".hr-inputs").unwrap().is_none());
    assert_eq!(
        root.query_selector("#hr-verdict").unwrap().unwrap().get_attribute("data-verdict").as_deref(),
        Some("fits")
    );
    let open = root.query_selector(".hr-open").unwrap().unwrap().get_attribute("href").unwrap();
    assert!(!open.contains("embed=1") && open.contains("model=qwen3-8b"), "{open}");
}

#[wasm_bindgen_test]
fn the_javascript_api_computes_a_link() {
    let v = headroom_web::estimate_js("?v=1&params=7B&weights=fp16").unwrap();
    let mem = js_sys::Reflect::get(&v, &"memory".into()).unwrap();
    let weights = js_sys::Reflect::get(&mem, &"weights".into()).unwrap().as_f64().unwrap();
    assert_eq!(weights, 14e9);
    assert!(headroom_web::estimate_js("?v=1&ctx=0&model=nope").is_ok(), "a bad link is read leniently");
    assert!(headroom_web::estimate_js("?v=1&hf=Qwen/Qwen2.5-7B").is_err(), "a Hub model needs the page");
}

fn click(root: &web_sys::HtmlElement, sel: &str) {
    let el: web_sys::HtmlElement = root.query_selector(sel).unwrap().unwrap().unchecked_into();
    el.click();
}

fn text(root: &web_sys::HtmlElement, sel: &str) -> String {
    root.query_selector(sel).unwrap().map(|e| e.text_content().unwrap_or_default()).unwrap_or_default()
}

/// Waits (up to about 5 s) for `cond`, yielding to the browser between tries.
async fn until(cond: impl Fn() -> bool) -> bool {
    for _ in 0..100 {
        if cond() {
            return true;
        }
        let p = js_sys::Promise::new(&mut |resolve, _| {
            web_sys::window()
                .unwrap()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50)
                .unwrap();
        });
        wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
    }
    cond()
}

#[wasm_bindgen_test]
async fn a_bad_hub_id_is_a_message_and_the_model_stays() {
    let root = fresh_root("?v=1&params=7B&weights=fp16");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    click(&root, "#hr-source-hub");
    leptos::task::tick().await;
    let input: web_sys::HtmlInputElement = root.query_selector("#hr-hf").unwrap().unwrap().unchecked_into();
    input.set_value("https://example.com/not/hugging-face");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    click(&root, "#hr-hf-read");
    leptos::task::tick().await;
    assert!(
        text(&root, "#hr-hf-error").contains("not a Hugging Face address"),
        "{}",
        text(&root, "#hr-hf-error")
    );
    assert_eq!(bytes(&root, "#hr-weights-bytes"), Some(14_000_000_000));
    // The token field is a password field, and refuses to exist for a hub that is not trusted.
    let token: web_sys::HtmlInputElement =
        root.query_selector("#hr-hf-token").unwrap().unwrap().unchecked_into();
    assert_eq!(token.type_(), "password");
    assert!(!token.disabled());
}

#[wasm_bindgen_test]
async fn an_unreachable_hub_is_a_message_not_a_blank_page() {
    // Nothing listens on port 9 of this machine: the read fails fast, the page keeps its figures.
    let root = fresh_root("?v=1&params=7B&weights=fp16&hf=org/model&hub=http://127.0.0.1:9");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    assert!(until(|| !text(&root, "#hr-hf-error").is_empty()).await, "no message");
    assert!(text(&root, "#hr-hf-error").contains("could not be reached"), "{}", text(&root, "#hr-hf-error"));
    assert_eq!(bytes(&root, "#hr-weights-bytes"), Some(14_000_000_000));
    assert!(search().contains("hf=org/model"), "the link still names the model: {}", search());
}

#[wasm_bindgen_test]
async fn a_token_is_never_offered_to_an_untrusted_hub() {
    let root = fresh_root("?v=1&hub=https://mirror.example");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    click(&root, "#hr-source-hub");
    leptos::task::tick().await;
    let token: web_sys::HtmlInputElement =
        root.query_selector("#hr-hf-token").unwrap().unwrap().unchecked_into();
    assert!(token.disabled());
}

#[wasm_bindgen_test]
async fn a_chosen_gguf_file_is_read_from_its_header() {
    let bytes_of_file = include_bytes!("../../tests/fixtures/gguf/qwen3moe-q8_0.gguf");
    let root = fresh_root("?v=1");
    let _h = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    click(&root, "#hr-source-file");
    leptos::task::tick().await;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(&bytes_of_file[..]));
    let file = web_sys::File::new_with_u8_array_sequence(&parts, "qwen3moe-q8_0.gguf").unwrap();
    let dt = web_sys::DataTransfer::new().unwrap();
    dt.items().add_with_file(&file).unwrap();
    let input: web_sys::HtmlInputElement =
        root.query_selector("#hr-gguf-file").unwrap().unwrap().unchecked_into();
    input.set_files(dt.files().as_ref());
    input.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    // The same file through the core directly.
    let g = headroom_core::import::gguf::parse(bytes_of_file).unwrap();
    let (model, _) = g.to_custom("qwen3moe-q8_0.gguf").unwrap();
    let s = headroom_core::scenario::Scenario {
        model: headroom_core::scenario::ModelSource::Custom(Box::new(model)),
        ..Default::default()
    };
    let want = headroom_core::estimate::estimate(&s).unwrap().memory.total.get();
    assert!(
        until(|| bytes(&root, "#hr-total-bytes") == Some(want)).await,
        "got {:?}, want {want}",
        bytes(&root, "#hr-total-bytes")
    );
    assert!(text(&root, "#hr-file-status").contains("GGUF"), "{}", text(&root, "#hr-file-status"));
}

/// An in-place card update keeps the live nodes and makes their attributes, text and children
/// those of the new HTML: changed values set, new ones added, dropped ones removed (also when a
/// node trades one attribute for another), extra children removed and missing ones appended.
#[wasm_bindgen_test]
fn a_card_is_updated_in_place() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let el = doc.create_element("div").unwrap();
    el.set_inner_html(
        r#"<p id="a" class="x" data-v="1" title="t">one</p><span class="s">two</span><i>gone</i>"#,
    );
    let p = el.query_selector("#a").unwrap().unwrap();
    let span = el.query_selector("span").unwrap().unwrap();
    headroom_web::morph::morph(
        &el,
        r#"<p id="a" class="y" data-v="1" lang="fr">uno</p><span hidden="">two</span><b>new</b>"#,
    );
    assert_eq!(
        el.inner_html(),
        r#"<p id="a" class="y" data-v="1" lang="fr">uno</p><span hidden="">two</span><b>new</b>"#
    );
    // The same nodes, updated.
    assert!(el.query_selector("#a").unwrap().unwrap().is_same_node(Some(&p)));
    assert!(el.query_selector("span").unwrap().unwrap().is_same_node(Some(&span)));
    // Nothing changes when nothing differs.
    headroom_web::morph::morph(&el, &el.inner_html());
    assert!(el.query_selector("#a").unwrap().unwrap().is_same_node(Some(&p)));
}
