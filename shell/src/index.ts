// Async boundary: the federation runtime negotiates the shared singletons first.
import('./bootstrap');
