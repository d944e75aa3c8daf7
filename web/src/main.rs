//! Mounts the calculator on the page; everything else is in the library.

fn main() {
    leptos::mount::mount_to_body(headroom_web::App);
}
