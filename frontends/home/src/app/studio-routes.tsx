import { Route, Routes } from 'react-router';
import { StudioPage } from '../features/studio/components/studio-page';

/** Mounted by the shell at `/studio/*` (`/studio?product=<id>` from the shell's product links). */
export default function StudioApp() {
  return (
    <Routes>
      <Route index element={<StudioPage />} />
    </Routes>
  );
}
