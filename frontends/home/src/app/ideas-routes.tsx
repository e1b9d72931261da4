import { Route, Routes } from 'react-router';
import { IdeaPage } from '../features/ideas/components/idea-page';

/** Mounted by the shell at `/ideas/*`: one idea per `:ideaId`. */
export default function IdeasApp() {
  return (
    <Routes>
      <Route path=":ideaId" element={<IdeaPage />} />
    </Routes>
  );
}
