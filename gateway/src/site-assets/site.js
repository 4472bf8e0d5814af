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
  // The announcement: a reader may dismiss it (its button is shown here); the dismissal is kept for this
  // announcement only (its data-announcement key), so a new one shows again.
  const banner = document.querySelector('.announcement[data-announcement]');
  const dismiss = banner?.querySelector('.announcement-dismiss');
  if (banner) {
    const key = `quire-announcement:${banner.getAttribute('data-announcement')}`;
    const store = (() => {
      try {
        return window.localStorage;
      } catch {
        return null;
      }
    })();
    if (store?.getItem(key)) banner.hidden = true;
    else if (dismiss instanceof HTMLButtonElement && store) {
      dismiss.hidden = false;
      dismiss.addEventListener('click', () => {
        store.setItem(key, '1');
        banner.hidden = true;
        document.getElementById('content')?.focus();
      });
    }
  }
})();
