import { useEffect, useState } from 'react';
import { TOP_BAR_TRANSLUCENT_AFTER_PX } from '@uplift/platform';

/** True once the page has scrolled strictly further than the threshold. */
export function isScrolledPast(scrollY: number, threshold = TOP_BAR_TRANSLUCENT_AFTER_PX): boolean {
  return scrollY > threshold;
}

export function useScrolledPast(threshold = TOP_BAR_TRANSLUCENT_AFTER_PX): boolean {
  const [past, setPast] = useState(() => isScrolledPast(window.scrollY, threshold));
  useEffect(() => {
    const onScroll = () => setPast(isScrolledPast(window.scrollY, threshold));
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  return past;
}
