import { Route, Routes } from 'react-router';
import { AnalyticsPage } from '../features/analytics/components/analytics-page';

/** The analytics remote's routes, relative to wherever the shell mounts them. */
export default function App() {
  return (
    <Routes>
      <Route index element={<AnalyticsPage />} />
    </Routes>
  );
}
