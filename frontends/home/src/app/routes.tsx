import { Route, Routes } from 'react-router';
import { HomePage } from './home-page';

/** The home remote's routes, relative to wherever the shell mounts them (`/`). */
export default function App() {
  return (
    <Routes>
      <Route index element={<HomePage />} />
    </Routes>
  );
}
