import type { MouseEvent } from 'react';
import { useLocation } from 'wouter';

/**
 * The click handler of HTML the site's renderer drew (a page, a diff's blocks): a plain click on a link to a page of
 * the app opens it in the app, without a reload; any other link (another site, a new tab, a download) is the browser's.
 */
export function useAppLinks(): (e: MouseEvent<HTMLElement>) => void {
  const [location, navigate] = useLocation();
  return (e) => {
    const a = (e.target as Element).closest('a[href]');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const url = new URL((a as HTMLAnchorElement).href);
    if (url.origin !== window.location.origin || !url.pathname.startsWith('/o/') || url.pathname === location) return;
    e.preventDefault();
    navigate(`${url.pathname}${url.search}${url.hash}`);
  };
}
