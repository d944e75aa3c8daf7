//! Mounts the calculator when the page is the calculator's own (a documentation page importing
//! the module for its JavaScript API gets no interface).

fn main() {
    if headroom_web::is_app_page() {
        // The build-time first view goes and the live page comes in the same task: nothing is
        // painted in between.
        headroom_web::drop_first_view();
        leptos::mount::mount_to_body(headroom_web::App);
        headroom_web::mark_live();
        headroom_web::flush_link_on_leave();
    }
}
