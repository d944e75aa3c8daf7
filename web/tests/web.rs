//! Component tests in headless Chromium (`wasm-bindgen-test`).
#![cfg(target_arch = "wasm32")]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use leptos::prelude::mount_to;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

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

#[wasm_bindgen_test]
async fn mounts_and_shows_weights_from_the_link() {
    let root = fresh_root("?v=1&params=7B&weights=fp16");
    let _handle = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let out = root.query_selector("#hr-weights-bytes").unwrap().unwrap();
    assert_eq!(out.get_attribute("data-bytes").as_deref(), Some("14000000000"));
}

#[wasm_bindgen_test]
async fn typing_a_count_updates_the_figure_and_the_link() {
    let root = fresh_root("");
    let _handle = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let input: web_sys::HtmlInputElement =
        root.query_selector("#hr-params").unwrap().unwrap().unchecked_into();
    input.set_value("500M");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    leptos::task::tick().await;
    let out = root.query_selector("#hr-weights-bytes").unwrap().unwrap();
    // Default precision is bf16: 2 bytes per parameter.
    assert_eq!(out.get_attribute("data-bytes").as_deref(), Some("1000000000"));
    let search = web_sys::window().unwrap().location().search().unwrap();
    assert!(search.contains("params=500M"), "{search}");
}

#[wasm_bindgen_test]
async fn a_bad_link_shows_a_notice_not_a_blank_page() {
    let root = fresh_root("?params=banana&weights=fp12");
    let _handle = mount_to(root.clone(), headroom_web::App);
    leptos::task::tick().await;
    let notice = root.query_selector(".hr-notice").unwrap().unwrap();
    assert!(notice.text_content().unwrap().contains("params"));
    assert!(root.query_selector("#hr-weights-bytes").unwrap().is_some());
}
