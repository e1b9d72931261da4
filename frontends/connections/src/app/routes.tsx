import { Route, Routes } from 'react-router';
import { ConnectionsPage } from '../features/connections/components/connections-page';

/** The connections remote's routes, relative to wherever the shell mounts them. */
export default function App() {
  return (
    <Routes>
      <Route index element={<ConnectionsPage />} />
    </Routes>
  );
}
