import { useState } from 'react';
import { AVATAR_SIZES, type AvatarSize } from '../constants';

/** The letter shown when there is no usable image: the name's first letter, else 'U'. */
export function avatarInitial(name: string | null | undefined): string {
  const first = name?.trim().charAt(0);
  return first ? first.toUpperCase() : 'U';
}

export interface AvatarProps {
  name?: string | null;
  src?: string | null;
  size?: AvatarSize;
}

export function Avatar({ name, src, size = 'sm' }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const px = AVATAR_SIZES[size];
  const showImage = Boolean(src) && failedSrc !== src;
  return (
    <span
      className="u-avatar"
      style={{ width: px, height: px, fontSize: Math.round(px * 0.45) }}
      data-size={px}
    >
      {showImage ? (
        <img src={src ?? undefined} alt="" onError={() => setFailedSrc(src ?? null)} />
      ) : (
        <span aria-hidden="true">{avatarInitial(name)}</span>
      )}
    </span>
  );
}
