//! The page's first view, rendered at build time (host only): the same components and core as
//! the WASM, for the default scenario in each language, written into `index.html` by
//! `headroom-prerender` so the frame and the default answer are readable before the WASM runs.
//!
//! A small inline script keeps the view of the reader's language (the link's `lang`, else the
//! browser's, as the WASM decides) and drops both when the link asks for anything else (another
//! scenario, the embed view, an unknown value): a first view must never show an answer the link
//! did not ask for. The WASM removes the view and mounts the same page in the same task, so
//! nothing is painted in between.

use headroom_core::share::decode_link;
use headroom_core::text::Lang;
use leptos::prelude::*;

/// Effects need an executor even where they never run: this one drops every task (nothing
/// reactive happens at build time; the WASM runs the effects in the browser).
struct Idle;

impl any_spawner::CustomExecutor for Idle {
    fn spawn(&self, _fut: any_spawner::PinnedFuture<()>) {}
    fn spawn_local(&self, _fut: any_spawner::PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

/// The attribute marking a prerendered view (the WASM removes every element carrying it).
pub const MARK: &str = "data-hr-prerender";

/// The default scenario's page in `lang`, as HTML.
pub fn first_view(lang: Lang) -> String {
    // Already set (a second call): the idle executor stays.
    let _ = any_spawner::Executor::init_custom_executor(Idle);
    let owner = Owner::new();
    // Read once, untracked: nothing re-renders at build time.
    owner.with(|| untrack(|| crate::app(decode_link(""), Some(lang)).to_html()))
}

/// Keeps the view of the link's or the browser's language, drops both when the link asks for
/// anything but the default scenario, and applies a theme the link names before the first paint.
const CHOOSER: &str = r#"<script>(function(){var q=new URLSearchParams(location.search),d=document,r=d.documentElement,own=true,l=null;q.forEach(function(v,k){if(k==='lang'&&/^(en|fr)/i.test(v)){l=v.slice(0,2).toLowerCase()}else if(k==='theme'&&(v==='light'||v==='dark')){r.setAttribute('data-hr-theme',v)}else if(!(k==='v'&&v==='1')){own=false}});if(!l){l=/^fr/i.test(navigator.language||'')?'fr':'en'}d.querySelectorAll('[data-hr-prerender]').forEach(function(e){if(own&&e.getAttribute('data-hr-prerender')===l){e.removeAttribute('hidden')}else{e.remove()}})})();</script>"#;

/// Lists a first view does not need to show: the model search's suggestions (shown only while
/// typing) and the device list's options other than the chosen one (a closed select shows only
/// that one). The live page brings them; dropping them here keeps the first view light (about
/// 7 KB gzip for the two languages) and changes nothing on screen.
fn trim_lists(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    // The suggestions: emptied.
    if let Some(i) = rest.find("<datalist id=\"hr-model-list\">")
        && let Some(j) = rest[i..].find("</datalist>")
    {
        let open_end = i + "<datalist id=\"hr-model-list\">".len();
        out.push_str(&rest[..open_end]);
        rest = &rest[i + j..];
    }
    // The device list: only the selected option.
    if let Some(i) = rest.find("<select id=\"hr-device\"")
        && let Some(j) = rest[i..].find("</select>")
    {
        let select = &rest[i..i + j];
        let open_end = select.find('>').map_or(select.len(), |k| k + 1);
        out.push_str(&rest[..i]);
        out.push_str(&select[..open_end]);
        let mut inner = &select[open_end..];
        while let Some(a) = inner.find("<option") {
            let Some(b) = inner[a..].find("</option>") else { break };
            let option = &inner[a..a + b + "</option>".len()];
            if option[..option.find('>').unwrap_or(0)].contains(" selected") {
                out.push_str(option);
            }
            inner = &inner[a + option.len()..];
        }
        rest = &rest[i + j..];
    }
    out.push_str(rest);
    out
}

/// `index` (Trunk's built page, whose body is empty) with both first views and the script that
/// chooses between them.
pub fn prerender_page(index: &str) -> Result<String, String> {
    const BODY: &str = "<body data-headroom-app>";
    let at = index.find(BODY).ok_or("no <body data-headroom-app> in the page")? + BODY.len();
    if !index[at..].trim_start().starts_with("</body>") {
        return Err("the page's body is not empty (already prerendered?)".into());
    }
    let mut views = String::new();
    for (lang, hidden) in [(Lang::En, ""), (Lang::Fr, " hidden")] {
        let html = trim_lists(&first_view(lang));
        let open = "<main class=\"hr-app\"";
        if !html.starts_with(open) {
            return Err(format!("the {} view does not start with {open}", lang.code()));
        }
        views.push_str(open);
        views.push_str(&format!(" {MARK}=\"{}\"{hidden}", lang.code()));
        views.push_str(&html[open.len()..]);
    }
    views.push_str(CHOOSER);
    Ok(format!("{}{views}{}", &index[..at], &index[at..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = "<!doctype html><html><head></head><body data-headroom-app></body></html>";

    #[test]
    fn both_languages_carry_the_default_answer() {
        let page = prerender_page(INDEX).unwrap();
        assert_eq!(page.matches("<main class=\"hr-app\" data-hr-prerender=").count(), 2);
        assert_eq!(page.matches("id=\"hr-total-bytes\"").count(), 2);
        assert!(page.contains("data-hr-prerender=\"fr\" hidden"));
        assert!(page.ends_with("</script></body></html>"));
        // The French view is French.
        let fr = &page[page.find("data-hr-prerender=\"fr\"").unwrap()..];
        assert!(fr.contains(crate::i18n::tr(Lang::Fr, crate::i18n::T::Tagline)));
    }

    #[test]
    fn lists_are_trimmed_to_what_shows() {
        let page = prerender_page(INDEX).unwrap();
        assert_eq!(page.matches("<datalist id=\"hr-model-list\"></datalist>").count(), 2);
        for view in page.split("<main").skip(1) {
            let select = &view[view.find("<select id=\"hr-device\"").unwrap()..];
            let select = &select[..select.find("</select>").unwrap()];
            assert_eq!(select.matches("<option").count(), 1, "{select}");
            assert!(select.contains(" selected") && !select.contains("<optgroup"), "{select}");
        }
        let html = "<p>a</p><select id=\"hr-device\"><option value=\"\" selected>none</option><optgroup label=\"x\"><option value=\"b\">B</option></optgroup></select><p>z</p>";
        assert_eq!(
            trim_lists(html),
            "<p>a</p><select id=\"hr-device\"><option value=\"\" selected>none</option></select><p>z</p>"
        );
    }

    #[test]
    fn a_page_is_prerendered_once() {
        let page = prerender_page(INDEX).unwrap();
        assert!(prerender_page(&page).unwrap_err().contains("not empty"));
        assert!(prerender_page("<body></body>").is_err());
    }
}
