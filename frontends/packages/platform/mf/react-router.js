// What every app gets for `import … from 'react-router'` in its bundle (the
// Module Federation share of that name, see shared.js): only the names our
// code uses, from React Router's production build. Shared as the whole
// package, React Router cost 60 KB gzip of every first load, because a shared
// module keeps all its exports (webpack cannot know what other apps use) and
// the package's default build is its development one. Importing a name not
// listed here fails scripts/shared-facades.test.mjs: add it here.
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
} from 'uplift-react-router-production';
