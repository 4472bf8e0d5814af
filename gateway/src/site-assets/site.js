// Quire published sites: small enhancements only — every page works without this file.
(() => {
  // "/" focuses the search box (unless typing somewhere already).
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const box = document.getElementById('site-search');
    if (box) {
      e.preventDefault();
      box.focus();
    }
  });
})();
