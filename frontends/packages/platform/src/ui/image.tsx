import type { ImgHTMLAttributes } from 'react';
import { IMAGE_DEFAULT_QUALITY, IMAGE_WIDTHS } from '../constants';

/**
 * The one image component (spec section 9: widths 640 … 3840, quality 75).
 * A loader turns (src, width, quality) into the address of that rendition on
 * an image service; with one, the browser picks from a srcset of the spec's
 * widths. Without one (or for data: and blob: images, which have a single
 * rendition) it is a plain <img>. Either way the intrinsic size is given, so
 * nothing shifts when it arrives, and it loads lazily unless it is the
 * page's main image (priority).
 */
export interface ImageLoaderArgs {
  src: string;
  width: number;
  quality: number;
}

export type ImageLoader = (args: ImageLoaderArgs) => string;

/** The spec's widths worth offering for an image `intrinsicWidth` wide: none larger (no upscaling). */
export function imageWidthsFor(intrinsicWidth: number): number[] {
  const widths: number[] = IMAGE_WIDTHS.filter((width) => width <= intrinsicWidth);
  return widths.length > 0 ? widths : [Math.max(1, Math.round(intrinsicWidth))];
}

/** The srcset: one candidate per width, each from the loader. */
export function imageSrcSet(src: string, intrinsicWidth: number, loader: ImageLoader, quality = IMAGE_DEFAULT_QUALITY): string {
  return imageWidthsFor(intrinsicWidth)
    .map((width) => `${loader({ src, width, quality })} ${width}w`)
    .join(', ');
}

export interface ImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'width' | 'height' | 'alt'> {
  src: string;
  /** Required: '' only for a purely decorative image. */
  alt: string;
  /** The image's intrinsic size in pixels (its aspect ratio reserves the space). */
  width: number;
  height: number;
  /** How wide it is shown, for the browser's choice from the srcset. */
  sizes?: string;
  quality?: number;
  loader?: ImageLoader;
  /** The page's main image: fetched at once and first. */
  priority?: boolean;
}

const singleRendition = (src: string) => src.startsWith('data:') || src.startsWith('blob:');

export function Image({
  src,
  alt,
  width,
  height,
  sizes = '100vw',
  quality = IMAGE_DEFAULT_QUALITY,
  loader,
  priority = false,
  style,
  ...rest
}: ImageProps) {
  const responsive = loader && src && !singleRendition(src);
  const widths = imageWidthsFor(width);
  return (
    <img
      {...rest}
      alt={alt}
      src={responsive ? loader({ src, width: widths[widths.length - 1]!, quality }) : src || undefined}
      srcSet={responsive ? imageSrcSet(src, width, loader, quality) : undefined}
      sizes={responsive ? sizes : undefined}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={priority ? 'high' : undefined}
      style={{ maxWidth: '100%', height: 'auto', ...style }}
    />
  );
}
