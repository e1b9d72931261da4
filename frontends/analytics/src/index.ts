// An async boundary so Module Federation can set up the shared singletons first.
import('./bootstrap');
