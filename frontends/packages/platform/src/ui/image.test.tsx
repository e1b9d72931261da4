import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IMAGE_DEFAULT_QUALITY, IMAGE_WIDTHS } from '../constants';
import { Image, imageSrcSet, imageWidthsFor, type ImageLoader } from './image';

const cdn: ImageLoader = ({ src, width, quality }) => `https://img.example.com/${width}/${quality}/${src}`;

describe('image widths', () => {
  it("are the spec's widths", () => {
    expect(IMAGE_WIDTHS).toEqual([640, 750, 828, 1080, 1200, 1920, 2048, 3840]);
    expect(IMAGE_DEFAULT_QUALITY).toBe(75);
  });

  it('never offer a rendition wider than the image', () => {
    expect(imageWidthsFor(4000)).toEqual([640, 750, 828, 1080, 1200, 1920, 2048, 3840]);
    expect(imageWidthsFor(3840)).toEqual([640, 750, 828, 1080, 1200, 1920, 2048, 3840]);
    expect(imageWidthsFor(1200)).toEqual([640, 750, 828, 1080, 1200]);
    expect(imageWidthsFor(1199)).toEqual([640, 750, 828, 1080]);
    expect(imageWidthsFor(300)).toEqual([300]);
  });

  it('build a srcset from the loader at quality 75 unless told', () => {
    expect(imageSrcSet('a.jpg', 900, cdn)).toBe(
      'https://img.example.com/640/75/a.jpg 640w, https://img.example.com/750/75/a.jpg 750w, https://img.example.com/828/75/a.jpg 828w',
    );
    expect(imageSrcSet('a.jpg', 640, cdn, 40)).toBe('https://img.example.com/640/40/a.jpg 640w');
  });
});

describe('Image', () => {
  it('with a loader: srcset, sizes, the largest useful rendition as src, lazy', () => {
    render(<Image src="mug.jpg" alt="A mug" width={2000} height={1000} sizes="50vw" loader={cdn} />);
    const img = screen.getByRole('img', { name: 'A mug' });
    expect(img.getAttribute('srcset')?.split(', ')).toHaveLength(6);
    expect(img.getAttribute('src')).toBe('https://img.example.com/1920/75/mug.jpg');
    expect(img.getAttribute('sizes')).toBe('50vw');
    expect(img.getAttribute('width')).toBe('2000');
    expect(img.getAttribute('height')).toBe('1000');
    expect(img.getAttribute('loading')).toBe('lazy');
  });

  it('a data: image has one rendition: no srcset; priority loads eagerly', () => {
    render(<Image src="data:image/png;base64,AAAA" alt="Preview" width={800} height={800} loader={cdn} priority />);
    const img = screen.getByRole('img', { name: 'Preview' });
    expect(img.getAttribute('srcset')).toBeNull();
    expect(img.getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
  });
});
