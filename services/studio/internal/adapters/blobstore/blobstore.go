// Package blobstore keeps the studio's images in a gocloud.dev bucket: a
// local directory by default (file:///path), S3-compatible storage
// (s3://bucket?region=…&endpoint=…) or GCS (gs://bucket) by changing one
// setting, STUDIO_BLOB_URL.
package blobstore

import (
	"context"
	"fmt"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// buckets
	_ "gocloud.dev/blob/gcsblob"  // gs:// buckets
	_ "gocloud.dev/blob/s3blob"   // s3:// buckets
	"gocloud.dev/gcerrors"

	"uplift.dev/studio/internal/domain"
)

// Store implements app.Blobs.
type Store struct {
	b *blob.Bucket
}

// Open opens the bucket at url.
func Open(ctx context.Context, url string) (*Store, error) {
	b, err := blob.OpenBucket(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("blob bucket %q: %w", url, err)
	}
	return &Store{b: b}, nil
}

// Put implements app.Blobs.
func (s *Store) Put(ctx context.Context, key string, data []byte, contentType string) error {
	return s.b.WriteAll(ctx, key, data, &blob.WriterOptions{ContentType: contentType})
}

// Get implements app.Blobs.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	data, err := s.b.ReadAll(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, domain.ErrNotFound
	}
	return data, err
}

// Delete implements app.Blobs; a missing key is already deleted.
func (s *Store) Delete(ctx context.Context, key string) error {
	err := s.b.Delete(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}

// Close releases the bucket.
func (s *Store) Close() error { return s.b.Close() }
