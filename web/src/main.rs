//! Mounts the calculator when the page is the calculator's own (a documentation page importing
//! the module for its JavaScript API gets no interface).

fn main() {
    if headroom_web::is_app_page() {
        leptos::mount::mount_to_body(headroom_web::App);
    }
}
