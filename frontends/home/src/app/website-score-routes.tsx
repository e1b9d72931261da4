import { Route, Routes } from 'react-router';
import { WebsiteScorePage } from '../features/website-score/components/website-score-page';

/** Mounted by the shell at `/website-score/*` (public). */
export default function WebsiteScoreApp() {
  return (
    <Routes>
      <Route index element={<WebsiteScorePage />} />
    </Routes>
  );
}
