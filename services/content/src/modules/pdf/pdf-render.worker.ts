// The `pdf` task of the content service's worker pool (see pdf-renderer.ts): laying out a book is CPU work that would
// otherwise stop the process's event loop for seconds.
import { renderBook } from './pdf-render.ts';

export default renderBook;
