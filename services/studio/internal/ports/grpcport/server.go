// Package grpcport is the studio's gRPC API: it translates requests to use
// cases and domain errors to gRPC statuses. Who may act on a category is
// decided by the categories service (adapters/categories), what the plan
// allows by the app.
package grpcport

import (
	"context"
	"errors"
	"log/slog"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	studiov1 "uplift.dev/proto/gen/uplift/studio/v1"

	"uplift.dev/platform/grpcerr"
	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/domain"
)

// Server implements studiov1.StudioServiceServer.
type Server struct {
	studiov1.UnimplementedStudioServiceServer
	App *app.App
	Log *slog.Logger
}

// UploadImage stores a product photo.
func (s *Server) UploadImage(ctx context.Context, req *studiov1.UploadImageRequest) (*studiov1.UploadImageResponse, error) {
	img, err := s.App.UploadImage(ctx, req.GetCategoryId(), req.GetFilename(), req.GetContent())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.UploadImageResponse{Image: toProtoImage(img)}, nil
}

// ImportProductImage stores a catalogue product's main photo.
func (s *Server) ImportProductImage(ctx context.Context, req *studiov1.ImportProductImageRequest) (*studiov1.ImportProductImageResponse, error) {
	img, err := s.App.ImportProductImage(ctx, req.GetCategoryId(), req.GetProductId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.ImportProductImageResponse{Image: toProtoImage(img)}, nil
}

// EditMask applies brush strokes to a photo's mask and queues a cut-out.
func (s *Server) EditMask(ctx context.Context, req *studiov1.EditMaskRequest) (*studiov1.EditMaskResponse, error) {
	modes := make([]string, len(req.GetStrokes()))
	radii := make([]float32, len(modes))
	points := make([][]float32, len(modes))
	for i, st := range req.GetStrokes() {
		modes[i], radii[i], points[i] = st.GetMode(), st.GetRadius(), st.GetPoints()
	}
	strokes, err := domain.ParseStrokes(modes, radii, points)
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	j, err := s.App.EditMask(ctx, req.GetCategoryId(), req.GetImageId(), strokes)
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.EditMaskResponse{Job: toProtoJob(j)}, nil
}

// GetImagePreview returns a reduced copy of a photo.
func (s *Server) GetImagePreview(ctx context.Context, req *studiov1.GetImagePreviewRequest) (*studiov1.GetImagePreviewResponse, error) {
	data, err := s.App.ImagePreview(ctx, req.GetCategoryId(), req.GetImageId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.GetImagePreviewResponse{ContentType: "image/jpeg", Content: data}, nil
}

// CreateJob queues a tool.
func (s *Server) CreateJob(ctx context.Context, req *studiov1.CreateJobRequest) (*studiov1.CreateJobResponse, error) {
	j, err := s.App.CreateJob(ctx, app.CreateJobInput{CategoryID: req.GetCategoryId(), ImageID: req.GetImageId(),
		Kind: req.GetKind(), Backdrop: req.GetBackdrop(), Color: req.GetColor(), Size: int(req.GetSize())})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.CreateJobResponse{Job: toProtoJob(j)}, nil
}

// ListJobs is the gallery.
func (s *Server) ListJobs(ctx context.Context, req *studiov1.ListJobsRequest) (*studiov1.ListJobsResponse, error) {
	jobs, err := s.App.ListJobs(ctx, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	out := &studiov1.ListJobsResponse{Jobs: make([]*studiov1.Job, len(jobs))}
	for i, j := range jobs {
		out.Jobs[i] = toProtoJob(j)
	}
	return out, nil
}

// GetJob returns one job.
func (s *Server) GetJob(ctx context.Context, req *studiov1.GetJobRequest) (*studiov1.GetJobResponse, error) {
	j, err := s.App.GetJob(ctx, req.GetCategoryId(), req.GetJobId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.GetJobResponse{Job: toProtoJob(j)}, nil
}

// DeleteJob removes a job.
func (s *Server) DeleteJob(ctx context.Context, req *studiov1.DeleteJobRequest) (*studiov1.DeleteJobResponse, error) {
	if err := s.App.DeleteJob(ctx, req.GetCategoryId(), req.GetJobId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.DeleteJobResponse{}, nil
}

// GetResultPreview returns a result's preview.
func (s *Server) GetResultPreview(ctx context.Context, req *studiov1.GetResultPreviewRequest) (*studiov1.GetResultPreviewResponse, error) {
	p, err := s.App.ResultPreview(ctx, req.GetCategoryId(), req.GetResultId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.GetResultPreviewResponse{ContentType: p.ContentType, Content: p.Data, Watermarked: p.Watermarked}, nil
}

// DownloadResult returns a result's file as the plan allows.
func (s *Server) DownloadResult(ctx context.Context, req *studiov1.DownloadResultRequest) (*studiov1.DownloadResultResponse, error) {
	d, err := s.App.DownloadResult(ctx, req.GetCategoryId(), req.GetResultId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.DownloadResultResponse{Filename: d.Filename, ContentType: d.ContentType, Content: d.Data,
		DownloadsLeft: int32(d.DownloadsLeft)}, nil
}

// GetStudioPlan says what the plan allows.
func (s *Server) GetStudioPlan(ctx context.Context, req *studiov1.GetStudioPlanRequest) (*studiov1.GetStudioPlanResponse, error) {
	p, err := s.App.GetPlan(ctx, req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &studiov1.GetStudioPlanResponse{Tier: p.Tier, Paid: p.Paid, DownloadsPerMonth: int32(p.DownloadsPerMonth),
		DownloadsLeft: int32(p.DownloadsLeft), BetaFeatures: p.Beta,
		JobsPerMonth: int32(p.JobsPerMonth), JobsLeft: int32(p.JobsLeft)}, nil
}

func (s *Server) toStatus(ctx context.Context, err error) error {
	var ve *domain.ValidationError
	var le *domain.LimitError
	var me *domain.MissingError
	switch {
	case errors.As(err, &me):
		return status.Error(codes.NotFound, me.Message)
	case errors.As(err, &ve):
		return grpcerr.InvalidField(ve.Field, ve.Message)
	case errors.As(err, &le):
		// A quota of the plan: 429 through the gateway; the web offers the upgrade.
		return status.Error(codes.ResourceExhausted, le.Message)
	case errors.Is(err, domain.ErrNotFound):
		return status.Error(codes.NotFound, "Not found.")
	case errors.Is(err, domain.ErrPermissionDenied):
		return status.Error(codes.PermissionDenied, "You do not have access to this store.")
	case app.IsClientError(err):
		return status.Error(codes.InvalidArgument, err.Error())
	}
	return grpcerr.Internal(ctx, s.Log, err)
}

func toProtoImage(img domain.Image) *studiov1.Image {
	return &studiov1.Image{Id: img.ID, Filename: img.Filename, Width: int32(img.Width), Height: int32(img.Height),
		CreateTime: timestamppb.New(img.CreatedAt), ProductId: img.ProductID}
}

func toProtoJob(j domain.Job) *studiov1.Job {
	out := &studiov1.Job{Id: j.ID, ImageId: j.ImageID, Kind: string(j.Kind), Status: string(j.Status),
		Progress: int32(j.Progress), Error: j.Error, Backdrop: j.Backdrop.Kind, Color: j.Backdrop.Hex(),
		Size: int32(j.Size), CreateTime: timestamppb.New(j.CreatedAt)}
	if j.Image != nil {
		out.Image = toProtoImage(*j.Image)
	}
	for _, r := range j.Results {
		out.Results = append(out.Results, &studiov1.Result{Id: r.ID, Name: r.Name, Format: r.Format,
			Width: int32(r.Width), Height: int32(r.Height), Bytes: r.Bytes})
	}
	return out
}
