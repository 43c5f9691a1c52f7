import { useEffect } from 'react';

/**
 * Names the browser tab `title` while the calling page is shown, once the title is known (a page
 * that loads its subject passes undefined until then), and gives the tab its old name back after.
 */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}
