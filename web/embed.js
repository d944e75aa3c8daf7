/* Headroom embed helper (about 1 KB). Add it once to a page that shows Headroom in iframes:
 *
 *   <iframe class="headroom-embed" src="https://…/?model=llama-3.1-8b&embed=1" width="100%"
 *           height="420" style="border:0" title="Headroom"></iframe>
 *   <script src="https://…/embed.js" defer></script>
 *
 * The embedded page posts {type: "headroom:height", height} whenever its height changes; this
 * script sets the height of the iframe the message came from. Only iframes whose src points to
 * the origin of this script (or carry class "headroom-embed") are resized. */
(function () {
  var script = document.currentScript;
  var origin = script && script.src ? new URL(script.src, location.href).origin : null;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'headroom:height' || typeof data.height !== 'number') return;
    if (origin && event.origin !== origin) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        var h = Math.max(80, Math.min(4000, Math.ceil(data.height)));
        frames[i].style.height = h + 'px';
        frames[i].setAttribute('data-headroom-height', String(h));
      }
    }
  });
})();
